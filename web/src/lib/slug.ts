/**
 * Slug of spec §2: the lowercased question text with punctuation removed and spaces turned into hyphens.
 * Letters and digits of every script survive; runs of whitespace become one hyphen; no leading/trailing hyphen.
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/** `/ask/{username}/question/{id}/{slug}` (the slug segment is omitted when the question has no letters). */
export function questionPath(username: string, id: string, question: string): string {
  const slug = slugify(question);
  const base = `/ask/${encodeURIComponent(username)}/question/${encodeURIComponent(id)}`;
  return slug ? `${base}/${encodeURIComponent(slug)}` : base;
}
