import { describe, expect, it } from 'vitest';
import { composeInboxMail } from './inbox-mail.js';

const base = {
  status: 'requested' as const,
  requestId: '0b8f8a52-7c0e-4c39-9d43-3d6f3f1f2a10',
  category: 'Account Issue' as const,
  title: 'Cannot change\r\nBcc: someone@example.com',
  description: 'Line one\nLine two',
  requestedAt: '2026-11-21T10:00:00.000Z',
  mailedAt: null,
  answer: null,
};

describe('support inbox mail', () => {
  it('carries the category, title, description and the signed-in sender', () => {
    const mail = composeInboxMail(
      { ...base, requester: { userId: 'u-1', username: 'ada' } },
      'support@example.com',
    );
    expect(mail.to).toBe('support@example.com');
    expect(mail.subject).toBe('[Support] Account Issue: Cannot change Bcc: someone@example.com');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text).toContain('Category: Account Issue');
    expect(mail.text).toContain('From: ada (user id u-1, signed in)');
    expect(mail.text).toContain('> Line one\n> Line two');
    expect(mail.letter?.facts?.[0]).toEqual({ label: 'Category', value: 'Account Issue' });
    expect(mail.messageId).toBe(`<support-request-${base.requestId}@ques.support>`);
  });

  it('says when a guest sent it', () => {
    expect(composeInboxMail({ ...base, requester: null }, 'support@example.com').text).toContain(
      'From: a guest (not signed in)',
    );
  });
});
