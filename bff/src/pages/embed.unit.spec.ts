import { describe, expect, it } from 'vitest';
import type { PublicProfile } from '@ques/contracts';
import { embedSnippets, textOn } from '@ques/contracts/core';
import { EMBED_CSP, embedHtml } from './embed.js';

const ada: PublicProfile = {
  _id: 'u1',
  id: 'u1',
  username: 'ada',
  name: 'Ada <Lovelace> & "Co"',
  bio: '',
  avatarUrl: '/images/user-image.png',
  brandColorMain: '#0B5FFF',
  brandColorLight: '#EEF3FF',
  archiveProfile: false,
};

describe('the embed card (pure)', () => {
  it('asks in the brand colours, escapes the name, links to the profile in a new tab, loads nothing', () => {
    const html = embedHtml('https://ques.test', ada);
    expect(html).toContain('Ask Ada &lt;Lovelace&gt; &amp; &quot;Co&quot; a question');
    expect(html).toContain('href="https://ques.test/ask/ada" target="_blank" rel="noopener"');
    expect(html).toContain('background:#0B5FFF');
    expect(html).toContain('background:#EEF3FF');
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(/i);
    expect(Buffer.byteLength(html)).toBeLessThan(5 * 1024);
  });

  it('wraps the label instead of cutting it, in a smaller type for a long name (issue 28)', () => {
    const html = embedHtml('https://ques.test', ada);
    expect(html).not.toMatch(/ellipsis|nowrap/);
    expect(html).toContain('font:600 15px');
    expect(embedHtml('https://ques.test', { ...ada, name: 'M'.repeat(70) })).toContain('font:600 12px');
  });

  it('shows an archive\'s answers link, never an ask button', () => {
    const html = embedHtml('https://ques.test', { ...ada, name: 'Archie', archiveProfile: true });
    expect(html).toContain('View Archie&#39;s answers');
    expect(html).not.toContain('Ask Archie');
  });

  it('falls back to the default colours when a stored colour is not a hex colour', () => {
    const html = embedHtml('https://ques.test', { ...ada, brandColorMain: 'red;}body{x:y', brandColorLight: '' });
    expect(html).toContain('background:#1A140F');
    expect(html).toContain('background:#FAF6F2');
    expect(html).not.toContain('red;}');
  });

  it('may be framed anywhere and loads nothing', () => {
    expect(EMBED_CSP).toContain('frame-ancestors *');
    expect(EMBED_CSP).toContain("default-src 'none'");
  });

  it('picks readable text on the brand colour and gives both snippets', () => {
    expect(textOn('#1A140F')).toBe('#FFFFFF');
    expect(textOn('#FAF6F2')).toBe('#000000');
    const { link, iframe } = embedSnippets('https://ques.test/', ada);
    expect(link).toContain('href="https://ques.test/ask/ada"');
    expect(link).toContain('background:#0B5FFF;color:#FFFFFF');
    expect(iframe).toContain('src="https://ques.test/embed/ada"');
    expect(iframe).toContain('title="Ask Ada &lt;Lovelace&gt; &amp; &quot;Co&quot; a question"');
  });
});
