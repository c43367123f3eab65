/*
 * What the BFF changes in the built app shell before serving it. Pure: no I/O.
 */

/** The canonical link of a built index.html: the absolute origin the build's default metadata was written for. */
const CANONICAL = /<link rel="canonical" href="(https?:\/\/[^/"]+)[^"]*"/;

/**
 * The shell with the configured public origin in its absolute URLs (canonical, og:url, og:image, twitter:image):
 * the build writes them for whatever origin it was told (`QUES_SITE_ORIGIN`, else a placeholder domain), the
 * running product knows its real one. Attribute values that start with the build's origin are rewritten; the rest of
 * the document is left as it is.
 */
export function withPublicOrigin(html: string, publicOrigin: string): string {
  const built = CANONICAL.exec(html)?.[1];
  const origin = publicOrigin.replace(/\/+$/, '');
  if (!built || built === origin) return html;
  return html.replaceAll(`="${built}/`, `="${origin}/`).replaceAll(`="${built}"`, `="${origin}"`);
}
