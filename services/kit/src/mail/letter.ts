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

/** A message made of a letter: its text part now, its HTML part when the mailer sends it (a kit `MailMessage`). */
export function letterMail<M extends { to: string; subject: string; messageId?: string; replyTo?: string }>(
  mail: M,
  letter: Letter,
): M & { text: string; letter: Letter } {
  return { ...mail, text: letterText(letter), letter };
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
