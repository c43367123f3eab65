import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { readMailbox } from './mailbox.js';
import { letterMail } from './letter.js';
import { createMailer } from './mailer.js';

const log = pino({ level: 'silent' });

/** A minimal SMTP server on a real socket (enough of RFC 5321 for nodemailer's plain, unauthenticated send). */
async function startSmtpServer(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let data = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index: number;
      while ((index = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            data = '';
            socket.write('250 2.0.0 queued\r\n');
          } else data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('mailer', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes .eml files under the mail directory that read back with subject, recipient and body intact', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ques-mail-')), 'mail');
    dirs.push(dir);
    const mailer = createMailer({ from: 'Ques <no-reply@ques.test>', mailDir: dir, log });
    expect(mailer.transport).toBe('file');
    const long = 'word '.repeat(40).trim();
    const sent = await mailer.send({
      to: 'émile@example.com',
      subject: 'Émile answered “your” question',
      text: `Hello Émile,\n\n${long}\nhttps://ques.test/ask/e/question/1/a-b`,
    });
    await mailer.send({ to: 'second@example.com', subject: 'Second', text: 'two' });
    expect(sent.file).toMatch(/\.eml$/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const mails = readMailbox(dir);
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatchObject({
      to: 'émile@example.com',
      from: 'Ques <no-reply@ques.test>',
      subject: 'Émile answered “your” question',
      messageId: sent.messageId,
    });
    expect(mails[0]!.text).toContain('Hello Émile,');
    expect(mails[0]!.text).toContain(long);
    expect(mails[0]!.text).toContain('https://ques.test/ask/e/question/1/a-b');
    expect(mails[1]!.subject).toBe('Second');
    mailer.close();
  });

  it('sends over SMTP when an SMTP URL is given, and rejects when the server is unreachable', async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({
        from: 'Ques <no-reply@ques.test>',
        smtpUrl: smtp.url,
        mailDir: '/nonexistent',
        log,
      });
      expect(mailer.transport).toBe('smtp');
      await mailer.send({
        to: 'owner@example.com',
        subject: 'New question',
        text: 'Someone asked you something.',
      });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toContain('To: owner@example.com');
      expect(smtp.received[0]).toContain('Subject: New question');
      expect(smtp.received[0]).toContain('Someone asked you something.');
      // A letter goes to Mailpit as multipart/alternative: its text and its rendered HTML.
      await mailer.send(letterMail({ to: 'owner@example.com', subject: 'Letter' }, { preview: 'p', heading: 'A heading', action: { label: 'Open', url: 'https://ques.test/admin' } }));
      expect(smtp.received[1]).toMatch(/Content-Type: multipart\/alternative;/);
      expect(smtp.received[1]).toContain('Content-Type: text/plain; charset=utf-8');
      expect(smtp.received[1]).toContain('Content-Type: text/html; charset=utf-8');
      expect(smtp.received[1]).toContain('Open: https://ques.test/admin');
      mailer.close();
    } finally {
      await smtp.close();
    }
    const down = createMailer({ from: 'Ques <no-reply@ques.test>', smtpUrl: 'smtp://127.0.0.1:9', log });
    await expect(down.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
    down.close();
  });
});
