import { FEED_ENTRIES, profilePath, questionPath, type PublicProfile, type PublicQuestion } from '@ques/contracts/core';

/*
 * The owner's Atom feed of public answers (RFC 4287; docs/adr/0029): `/ask/{username}/feed.atom`, newest first, at
 * most FEED_ENTRIES. Pure: the route (routes.ts) loads, caches and sends it.
 */

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Escaped text with the characters XML 1.0 forbids removed (an owner can type a control character). */
const xml = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** What the feed lists: answered, shown, not deleted, not private — the public page's own rule. */
export const isPublicAnswer = (q: PublicQuestion, username: string) =>
  Boolean(q.answer?.trim()) &&
  q.displayOnProfile !== false &&
  !q.deletedByReceiver &&
  q.isPrivate !== true &&
  (q.toUsername ?? '').toLowerCase() === username.toLowerCase();

const iso = (value: string | null | undefined, fallback: string) => {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
};

/** When an entry last changed (its answer or wording): the feed's `updated` is the newest of these. */
export const entryUpdated = (q: PublicQuestion) => iso(q.updatedAt ?? q.answeredAt, iso(q.createdAt, new Date(0).toISOString()));

export function atomFeed(origin: string, profile: PublicProfile, answers: readonly PublicQuestion[]): { xml: string; updated: string } {
  const base = origin.replace(/\/+$/, '');
  const entries = answers
    .filter((q) => isPublicAnswer(q, profile.username))
    .sort((a, b) => Date.parse(b.answeredAt ?? b.createdAt) - Date.parse(a.answeredAt ?? a.createdAt))
    .slice(0, FEED_ENTRIES);
  const profileUrl = `${base}${profilePath(profile.username)}`;
  const selfUrl = `${profileUrl}/feed.atom`;
  const updated = entries.reduce((latest, q) => (entryUpdated(q) > latest ? entryUpdated(q) : latest), '') ||
    new Date(0).toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${xml(profileUrl)}</id>`,
    `  <title>${xml(`${profile.name} — answers on Ques`)}</title>`,
    ...(profile.bio?.trim() ? [`  <subtitle>${xml(profile.bio.trim())}</subtitle>`] : []),
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(selfUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(profileUrl)}"/>`,
    `  <author><name>${xml(profile.name)}</name><uri>${xml(profileUrl)}</uri></author>`,
    '  <generator>Ques</generator>',
  ];
  for (const q of entries) {
    const url = `${base}${questionPath(profile.username, q._id, q.question)}`;
    lines.push(
      '  <entry>',
      `    <id>urn:uuid:${xml(q._id)}</id>`,
      `    <title>${xml(q.question)}</title>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <published>${iso(q.answeredAt, iso(q.createdAt, updated))}</published>`,
      `    <updated>${entryUpdated(q)}</updated>`,
      ...q.tags.map((tag) => `    <category term="${xml(tag)}"/>`),
      `    <content type="text">${xml(q.answer)}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return { xml: lines.join('\n'), updated };
}
