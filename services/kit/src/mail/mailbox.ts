import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A message read back from a file-transport mail directory. */
export interface StoredMail {
  file: string;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  /** The top-level Content-Type (`multipart/alternative` for a letter, `text/plain` otherwise). */
  contentType: string;
  /** The text/plain part. */
  text: string;
  /** The text/html part, when there is one. */
  html?: string;
}

/**
 * Reads the `.eml` files the file mailer wrote (oldest first): what someone running the embedded product, or a test,
 * looks at instead of an inbox. Handles what nodemailer produces (folded headers, RFC 2047 encoded words,
 * quoted-printable or base64 bodies, one multipart/alternative level); not a general MIME parser.
 */
export function readMailbox(dir: string): StoredMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => parseEml(readFileSync(join(dir, name), 'utf8'), join(dir, name)));
}

export function parseEml(raw: string, file = ''): StoredMail {
  const { headers, body } = splitEntity(raw.replace(/\r\n/g, '\n'));
  const contentType = headers.get('content-type') ?? 'text/plain';
  const parts = contentType.toLowerCase().startsWith('multipart/') ? multipartParts(body, contentType) : [{ headers, body }];
  const part = (type: string) => {
    const found = parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type));
    return found ? decodeBody(found.body, (found.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase()) : undefined;
  };
  const html = part('text/html');
  return {
    file,
    from: decodeWords(headers.get('from') ?? ''),
    to: decodeWords(headers.get('to') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    messageId: headers.get('message-id') ?? '',
    contentType: contentType.split(';')[0]!.trim().toLowerCase(),
    text: part('text/plain') ?? '',
    ...(html !== undefined ? { html } : {}),
  };
}

interface Entity {
  headers: Map<string, string>;
  body: string;
}

function splitEntity(normalized: string): Entity {
  const split = normalized.indexOf('\n\n');
  const head = split === -1 ? normalized : normalized.slice(0, split);
  const body = split === -1 ? '' : normalized.slice(split + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The parts of a multipart body, split at its boundary. */
function multipartParts(body: string, contentType: string): Entity[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return [];
  const chunks = body.split(`--${boundary}`);
  // Before the first boundary: the preamble; after the closing `--boundary--`: the epilogue.
  return chunks
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => splitEntity(chunk.replace(/^\n/, '').replace(/\n$/, '')));
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function decodeQuotedPrintable(input: string): string {
  const joined = input.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const c = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=` / `=?UTF-8?B?…?=`); whitespace between adjacent words is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
