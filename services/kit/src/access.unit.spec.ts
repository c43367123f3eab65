import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { requireAccess } from './access.js';

const messages = { forbidden: 'Only the recipient can answer this question.', notFound: 'Question not found' };

function outcome(allowed: boolean, canSee: boolean): number | 'allowed' {
  try {
    requireAccess(allowed, canSee, messages);
    return 'allowed';
  } catch (error) {
    return (error as AppError).status;
  }
}

describe('requireAccess', () => {
  it('lets the allowed through, tells a party why not (403) and a stranger nothing (404)', () => {
    expect(outcome(true, true)).toBe('allowed');
    expect(outcome(true, false)).toBe('allowed');
    expect(outcome(false, true)).toBe(403);
    expect(outcome(false, false)).toBe(404);
  });

  it('uses the messages it is given', () => {
    expect(() => requireAccess(false, true, messages)).toThrow(messages.forbidden);
    expect(() => requireAccess(false, false, messages)).toThrow(messages.notFound);
  });
});
