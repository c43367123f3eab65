/**
 * Slug of spec §2: the lowercased question text with punctuation removed and spaces turned into hyphens.
 * Letters and digits of every script survive, and so do hyphens ("well-known"); runs of whitespace become one
 * hyphen; at most 120 characters. The same rule as `questionSlug` in @ques/contracts, which the e-mail links
 * and the server-rendered canonical URLs use: one answer, one URL.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 120);
}

/** `/ask/{username}/question/{id}/{slug}` (the slug segment is omitted when the question has no letters). */
export function questionPath(username: string, id: string, question: string): string {
  const slug = slugify(question);
  const base = `/ask/${encodeURIComponent(username)}/question/${encodeURIComponent(id)}`;
  return slug ? `${base}/${encodeURIComponent(slug)}` : base;
}
