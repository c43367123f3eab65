/** Countries where a Stripe Connect payout account can be opened. */
export const PAYOUT_COUNTRIES = [
  'AT', 'AU', 'BE', 'BG', 'BR', 'CA', 'CH', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GB', 'GI', 'GR', 'HK',
  'HR', 'HU', 'IE', 'IT', 'JP', 'LI', 'LT', 'LU', 'LV', 'MT', 'MX', 'MY', 'NL', 'NO', 'NZ', 'PL', 'PT', 'RO', 'SE',
  'SG', 'SI', 'SK', 'TH', 'US',
] as const;

/**
 * The country of the browser's preferred locale ("en-GB" → GB), if it is one we can offer; else '' — the owner
 * chooses (issue 28: it cannot be changed later, so it is never assumed). The spec's third-party IP lookup is
 * replaced by the locale: no request to another site, nothing about the owner leaves.
 */
export function countryFromLocale(languages: readonly string[] = browserLanguages()): string {
  for (const tag of languages) {
    let region: string | undefined;
    try {
      region = new Intl.Locale(tag).region;
    } catch {
      region = /^[a-z]{2,3}[-_]([A-Za-z]{2})\b/i.exec(tag)?.[1];
    }
    const code = region?.toUpperCase();
    if (code && (PAYOUT_COUNTRIES as readonly string[]).includes(code)) return code;
  }
  return '';
}

function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? [...navigator.languages] : navigator.language ? [navigator.language] : [];
}

let names: Intl.DisplayNames | null | undefined;
/** "CA" → "Canada" (the code itself where Intl.DisplayNames is missing). */
export function countryName(code: string): string {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      names = null;
    }
  }
  return names?.of(code) ?? code;
}
