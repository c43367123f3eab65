/** Content codings the BFF sends, best first (ties in the client's preference go to the earlier one). */
export type ContentCoding = 'br' | 'gzip';

/** The q-value of each coding in an Accept-Encoding header (RFC 9110 §12.5.3); `*` stands for any not named. */
function qValues(header: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (!coding) continue;
    let value = 1;
    for (const param of params) {
      const [key, raw] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') value = Number(raw?.trim());
    }
    q.set(
      coding === 'x-gzip' ? 'gzip' : coding,
      Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0,
    );
  }
  return q;
}

/** The coding to send for this Accept-Encoding, or null for the original bytes. */
export function negotiateCoding(header: string | undefined): ContentCoding | null {
  if (!header) return null;
  const q = qValues(header);
  const of = (coding: ContentCoding) => q.get(coding) ?? q.get('*') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  if (br <= 0 && gzip <= 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}

/**
 * `negotiateCoding` remembered per header value: browsers send a handful of distinct values, so a page load parses
 * each once. Bounded, so a client sending endless variations cannot grow it.
 */
export function cachedNegotiator(maxEntries = 256): (header: string | undefined) => ContentCoding | null {
  const cache = new Map<string, ContentCoding | null>();
  return (header) => {
    if (!header) return null;
    const hit = cache.get(header);
    if (hit !== undefined) return hit;
    const coding = negotiateCoding(header);
    if (cache.size >= maxEntries) cache.clear();
    cache.set(header, coding);
    return coding;
  };
}
