/*
 * A letter: the content of one e-mail, once (ADR 0053). The HTML part (`renderLetterHtml`, React Email) and the
 * plain-text part (`letterText`, here) are both drawn from it, so the two parts cannot drift apart. Pure (no I/O, no
 * React): domain code builds letters, the mailer renders them when it sends.
 */

/** Whose colours a letter wears: the owner it is about, or Ques's own (`QUES_BRAND`). */
export interface Brand {
  /** Shown in the header beside its initial (no remote image: mail loads nothing from anywhere). */
  name: string;
  /** `#rrggbb`: the header band and the button. */
  main: string;
  /** `#rrggbb`: the quote's and facts' background tint. */
  light: string;
}

export const QUES_BRAND: Brand = { name: 'Ques', main: '#4f46e5', light: '#eef2ff' };

/** One line of the facts table at the top ("Amount held" · "$5.00"). */
export interface Fact {
  label: string;
  value: string;
}

/**
 * A paragraph; a quoted text (something someone wrote: a question, an answer) with an optional label above it; or
 * an item of a list with its own link (a digest's questions).
 */
export type Block = string | { quote: string; label?: string } | { item: string; link: { label: string; url: string } };

export interface Letter {
  /** The inbox preview line (hidden in the body). */
  preview: string;
  /** `null`/absent: Ques's colours. */
  brand?: Brand | null;
  /** "Hi Ada," (omitted when the name is not known). */
  greeting?: string;
  heading: string;
  /** The facts, right under the heading: what the mail is about in the first lines. */
  facts?: Fact[];
  body?: Block[];
  /** The one button. */
  action?: { label: string; url: string };
  /** Small print under the button (what the link does, what to do if this was not you). */
  after?: string[];
  /** Why this mail came (the footer's first line). */
  footer?: string;
}

const HEX = /^#[0-9a-f]{6}$/i;

/**
 * The owner's colours as identity published them, or Ques's when they are missing or malformed (the snapshot
 * carries free text; an address or a style injection must never reach the mail's CSS).
 */
export function ownerBrand(owner: { name: string; brandColorMain?: string | null; brandColorLight?: string | null }): Brand {
  const main = owner.brandColorMain && HEX.test(owner.brandColorMain) ? owner.brandColorMain : QUES_BRAND.main;
  const light = owner.brandColorLight && HEX.test(owner.brandColorLight) ? owner.brandColorLight : QUES_BRAND.light;
  return { name: owner.name || 'Ques', main, light };
}

/** Relative luminance (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White or near-black, whichever reads better on `background` (a pale brand colour gets dark text). */
export function textOn(background: string): string {
  const l = luminance(background);
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (luminance('#111827') + 0.05);
  return onWhite >= onDark ? '#ffffff' : '#111827';
}

const quoted = (text: string) =>
  text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');

/** The plain-text part: the same content as the HTML, in reading order, each link after its label. */
export function letterText(letter: Letter): string {
  const parts: string[] = [];
  if (letter.greeting) parts.push(letter.greeting);
  parts.push(letter.heading);
  if (letter.facts?.length) parts.push(letter.facts.map((f) => `${f.label}: ${f.value}`).join('\n'));
  for (const block of letter.body ?? []) {
    if (typeof block === 'string') parts.push(block);
    else if ('item' in block) parts.push(`- ${block.item}\n  ${block.link.label}: ${block.link.url}`);
    else parts.push(`${block.label ? `${block.label}\n\n` : ''}${quoted(block.quote)}`);
  }
  if (letter.action) parts.push(`${letter.action.label}: ${letter.action.url}`);
  parts.push(...(letter.after ?? []));
  parts.push(['— Ques', ...(letter.footer ? [letter.footer] : [])].join('\n'));
  return `${parts.join('\n\n')}\n`;
}

// Line breaks (CR, LF, tab, the Unicode separators) and every other C0/C1 control and bidi override or isolate.
const BREAKS = /[\r\n\t\u2028\u2029]+/g;
const CONTROLS = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
const CONTROLS_BUT_LF = /(?![\n])[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * One line of plain text: what a name becomes wherever a letter puts it (subject, greeting, heading, facts, brand,
 * paragraphs — every field but a quote).
 * Contracts refuse such names at input (ADR 0054); this is the mail's own guard for what came before that rule or by
 * another way (an old event, an archive, an operator's words) — no line, header or direction trick reaches a mail.
 */
export const oneLine = (value: string): string => value.replace(BREAKS, ' ').replace(CONTROLS, '');

/** A quoted text keeps its line breaks (a question has lines) and loses every other control. */
const plainText = (value: string): string => value.replace(/\r\n?/g, '\n').replace(CONTROLS_BUT_LF, '');

function plainLetter(letter: Letter): Letter {
  const block = (b: Block): Block =>
    typeof b === 'string'
      ? oneLine(b)
      : 'item' in b
        ? { item: oneLine(b.item), link: { label: oneLine(b.link.label), url: oneLine(b.link.url) } }
        : { quote: plainText(b.quote), ...(b.label === undefined ? {} : { label: oneLine(b.label) }) };
  return {
    ...letter,
    preview: oneLine(letter.preview),
    ...(letter.brand ? { brand: { ...letter.brand, name: oneLine(letter.brand.name) } } : {}),
    ...(letter.greeting === undefined ? {} : { greeting: oneLine(letter.greeting) }),
    heading: oneLine(letter.heading),
    ...(letter.facts ? { facts: letter.facts.map((f) => ({ label: oneLine(f.label), value: oneLine(f.value) })) } : {}),
    ...(letter.body ? { body: letter.body.map(block) } : {}),
    ...(letter.action ? { action: { label: oneLine(letter.action.label), url: oneLine(letter.action.url) } } : {}),
    ...(letter.after ? { after: letter.after.map(oneLine) } : {}),
    ...(letter.footer === undefined ? {} : { footer: oneLine(letter.footer) }),
  };
}

/**
 * A message made of a letter: its text part now, its HTML part when the mailer sends it (a kit `MailMessage`). Every
 * field is plain text first (`oneLine`): both parts and the subject come from the cleaned letter.
 */
export function letterMail<M extends { to: string; subject: string; messageId?: string; replyTo?: string }>(
  mail: M,
  letter: Letter,
): M & { text: string; letter: Letter } {
  const plain = plainLetter(letter);
  return { ...mail, subject: oneLine(mail.subject), text: letterText(plain), letter: plain };
}

/** "Fri, 4 Dec 2026, 14:05 UTC": a mail has no viewer's time zone, so it names the one it uses. */
export function utcDateTime(date: Date | string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(date));
  return `${text} UTC`;
}
