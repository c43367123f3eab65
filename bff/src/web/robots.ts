/**
 * `/robots.txt` (pure): public pages may be crawled; the owner's area, the API and the test-mode payment pages are
 * not pages anyone should find in a search. The sitemap is on the configured public origin.
 */
export function robotsTxt(publicOrigin: string): string {
  const origin = publicOrigin.replace(/\/+$/, '');
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /api/',
    'Disallow: /pay/',
    // A question's private status page (issue 14): a link for its asker only.
    'Disallow: /q/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
