import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { renderLetterHtml } from './layout.js';
import { letterText, type Letter } from './letter.js';

/**
 * One e-mail. Services give a `letter` (ADR 0053): the mailer renders its HTML part when it sends, and `text` is the
 * letter's plain-text part (`letterMail` fills both); a message without a letter is sent as plain text.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  letter?: Letter;
  replyTo?: string;
  /** A stable id (e.g. derived from the event that caused the mail) lets the receiving side dedupe retries. */
  messageId?: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file written (file transport only). */
  file?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'file';
  /** Resolves once the SMTP server accepted the message (or the file is on disk); rejects otherwise. */
  send(mail: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface MailerOptions {
  /** `From:` header, e.g. `Ques <no-reply@ques.app>`. */
  from: string;
  log: Logger;
  /** smtp:// or smtps:// URL; when set, mail goes to that server. */
  smtpUrl?: string;
  /** Without SMTP: where `.eml` files are written (e.g. `DATA_DIR/mail`). */
  mailDir?: string;
}

/**
 * SMTP when `smtpUrl` is set (docker compose: Mailpit), otherwise `.eml` files under `mailDir` plus a log line (the
 * embedded default and tests). Either way the caller sees the same `send`.
 */
export function createMailer(opts: MailerOptions): Mailer {
  if (opts.smtpUrl) return smtpMailer(opts.smtpUrl, opts.from, opts.log);
  if (!opts.mailDir) throw new Error('createMailer needs smtpUrl or mailDir');
  return fileMailer(opts.mailDir, opts.from, opts.log);
}

export function smtpMailer(url: string, from: string, log: Logger): Mailer {
  // Short timeouts: a send runs inside a retried job, so failing fast beats holding a transaction open.
  const transporter: Transporter = nodemailer.createTransport(url, {
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  } as never);
  const host = safeHost(url);
  return {
    transport: 'smtp',
    async send(mail) {
      const info = await transporter.sendMail({ from, ...(await toNodemailer(mail)) });
      log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId, smtp: host }, 'mail sent');
      return { messageId: info.messageId };
    },
    close() {
      transporter.close();
    },
  };
}

export function fileMailer(dir: string, from: string, log: Logger): Mailer {
  mkdirSync(dir, { recursive: true });
  // nodemailer renders the full RFC 5322 message (headers, encodings) without sending it anywhere.
  const transporter: Transporter = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    transport: 'file',
    async send(mail) {
      const rendered = await toNodemailer(mail);
      const info = await transporter.sendMail({ from, ...rendered });
      const message = (info as unknown as { message: Buffer }).message;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = join(dir, name);
      // Written under a temporary name and renamed, so a reader never sees half a message.
      // The HTML part beside it first, to open in a browser (the embedded default has no mail client).
      if (rendered.html) writeFileSync(file.replace(/\.eml$/, '.html'), rendered.html);
      writeFileSync(`${file}.tmp`, message);
      renameSync(`${file}.tmp`, file);
      log.info({ to: mail.to, subject: mail.subject, file }, 'mail written');
      return { messageId: info.messageId, file };
    },
    close() {
      transporter.close();
    },
  };
}

/** What nodemailer gets: a letter becomes the HTML part beside its text (multipart/alternative). */
async function toNodemailer(mail: MailMessage): Promise<Omit<MailMessage, 'letter'>> {
  const { letter, ...rest } = mail;
  if (!letter) return rest;
  return { ...rest, text: rest.text || letterText(letter), html: rest.html ?? (await renderLetterHtml(letter)) };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'smtp';
  }
}
