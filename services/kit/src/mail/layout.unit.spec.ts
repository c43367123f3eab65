import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { renderLetterHtml } from './layout.js';
import { letterMail, letterText, ownerBrand, QUES_BRAND, textOn, type Letter } from './letter.js';
import { readMailbox } from './mailbox.js';
import { createMailer } from './mailer.js';

const XSS = '<img src=x onerror=alert(1)>';

const receipt = (name: string): Letter => ({
  preview: `Your question to ${name} is waiting for an answer`,
  brand: ownerBrand({ name, brandColorMain: '#0f766e', brandColorLight: '#ccfbf1' }),
  greeting: 'Hello,',
  heading: `Your question to ${name}`,
  facts: [
    { label: 'Question', value: 'What <b>is</b> a monad?' },
    { label: 'Amount held', value: '$5.00' },
  ],
  body: ['Nothing is charged until they answer.', { label: 'You asked:', quote: 'line one\n<script>alert(2)</script>' }],
  action: { label: 'Follow your question', url: 'https://ques.test/q/abc?x=1&y=2' },
  after: ['If you did not ask a question on Ques, ignore this e-mail.'],
  footer: 'You received this because this address was given when asking.',
});

describe('mail layout', () => {
  it('renders one letter to HTML (lang, 600 px, no remote resources) and to text with the facts first and the link', async () => {
    const letter = receipt('Mira Castell');
    const html = await renderLetterHtml(letter);
    expect(html).toMatch(/^<!DOCTYPE html/i);
    expect(html).toContain('lang="en"');
    expect(html).toContain('max-width:600px');
    expect(html).toContain('Mira Castell');
    expect(html).toContain('$5.00');
    expect(html).toContain('href="https://ques.test/q/abc?x=1&amp;y=2"');
    expect(html).toContain('Follow your question');
    // Nothing fetched from anywhere: no image, no web font, no tracking pixel.
    expect(html).not.toMatch(/<img|<link|@import|url\(/i);

    const text = letterText(letter);
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual(['Hello,', '', 'Your question to Mira Castell', '', 'Question: What <b>is</b> a monad?', 'Amount held: $5.00']);
    expect(text).toContain('Follow your question: https://ques.test/q/abc?x=1&y=2');
    expect(text).toContain('> <script>alert(2)</script>');
    expect(text).not.toMatch(/<table|style=/);
  });

  it('escapes everything a person typed: a name, a title and a quoted text arrive as text, never as markup', async () => {
    const html = await renderLetterHtml(receipt(XSS));
    expect(html).not.toContain(XSS);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<b>is</b>');
    expect(html).toContain('What &lt;b&gt;is&lt;/b&gt; a monad?');
    expect(html).not.toContain('<script>');
  });

  it("wears the owner's colour (header and button) and Ques's own when the owner's is missing or not a colour", async () => {
    const html = await renderLetterHtml(receipt('Mira'));
    expect(html).toContain('background-color:#0f766e');
    expect(html).toContain('background-color:#ccfbf1');
    expect(html).not.toContain(QUES_BRAND.main);

    const injected = ownerBrand({ name: 'Eve', brandColorMain: 'red;background:url(https://evil.test/x)', brandColorLight: '' });
    expect(injected).toEqual({ name: 'Eve', main: QUES_BRAND.main, light: QUES_BRAND.light });
    const plain = await renderLetterHtml({ preview: 'p', heading: 'Verify your address' });
    expect(plain).toContain(`background-color:${QUES_BRAND.main}`);
    expect(plain).toContain('>Ques<');
  });

  it('picks dark text on a pale brand colour and white on a deep one', () => {
    expect(textOn('#fde047')).toBe('#111827');
    expect(textOn('#1e3a8a')).toBe('#ffffff');
  });

  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('the file mailer writes a letter as multipart/alternative (text and HTML) with an .html preview beside it', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ques-letter-')), 'mail');
    dirs.push(dir);
    const mailer = createMailer({ from: 'Ques <no-reply@ques.test>', mailDir: dir, log: pino({ level: 'silent' }) });
    const sent = await mailer.send(letterMail({ to: 'a@example.com', subject: 'Your question to Mira', messageId: '<r.1@ques>' }, receipt('Mira')));
    const [mail] = readMailbox(dir);
    expect(mail).toMatchObject({ contentType: 'multipart/alternative', subject: 'Your question to Mira', messageId: '<r.1@ques>' });
    expect(mail!.text).toContain('Amount held: $5.00');
    expect(mail!.text).toContain('https://ques.test/q/abc?x=1&y=2');
    expect(mail!.html).toContain('href="https://ques.test/q/abc?x=1&amp;y=2"');
    const preview = sent.file!.replace(/\.eml$/, '.html');
    expect(existsSync(preview)).toBe(true);
    expect(readFileSync(preview, 'utf8')).toBe(mail!.html);
    mailer.close();
  });
  it('makes every name in a letter one plain line: no control characters, line breaks or direction overrides in either part or the subject', async () => {
    const name = 'Eve\r\nBcc: all@example.com\u0007\u202egnp.exe\u2066x\u0000';
    const mail = letterMail({ to: 'a@example.com', subject: `Your question to ${name} on Ques` }, {
      ...receipt(name),
      greeting: `Hi ${name},`,
      facts: [{ label: 'To', value: name }],
      body: [`${name} decides whether to answer.`, { label: 'You asked', quote: 'line one\r\nline two\u0007' }],
    });
    const CONTROL = /(?!\n)[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    expect(mail.subject).toBe('Your question to Eve Bcc: all@example.comgnp.exex on Ques');
    expect(mail.text).not.toMatch(CONTROL);
    expect(mail.text).not.toContain('\nBcc:');
    expect(mail.text).toContain('Hi Eve Bcc: all@example.comgnp.exex,');
    // A quote keeps its lines, nothing else.
    expect(mail.text).toContain('> line one\n> line two\n');
    const html = await renderLetterHtml(mail.letter);
    expect(html).not.toMatch(CONTROL);
  });
});
