/*
 * The public handle (issue 28): the `{handle}` of `/ask/{handle}`, chosen at sign-up and changeable later. One rule,
 * used by the web app (live, as the person types) and by identity (the authority). Zod-free: the browser loads it.
 */

export const HANDLE_MIN = 3;
export const HANDLE_MAX = 30;
/** How long a released handle (renamed away) keeps redirecting and stays reserved for its previous owner. */
export const HANDLE_HOLD_DAYS = 90;

export const HANDLE_MESSAGES = {
  shape: `Use ${HANDLE_MIN} to ${HANDLE_MAX} lowercase letters, numbers or hyphens.`,
  spaces: 'Links cannot contain spaces. Use a hyphen instead.',
  lookalike: 'Use plain letters a to z only: no accents, symbols or letters from other alphabets.',
  hyphens: 'A link cannot start or end with a hyphen, or have two in a row.',
  reserved: 'That word is reserved.',
  taken: 'That link is taken.',
  unchanged: 'This is already your link.',
  required: 'Please choose your link.',
} as const;

/**
 * Words a handle cannot be: the app's own top-level paths (so `/ask/{handle}` never reads as a page of Ques), the
 * service's names and words that would let someone pose as the platform.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  // routes of the web app and the BFF
  'admin', 'ops', 'api', 'ask', 'q', 'login', 'signup', 'logout', 'settings', 'account', 'account-settings',
  'support', 'help', 'terms-of-use', 'privacy-policy', 'terms', 'privacy', 'legal', 'embed', 'sitemap',
  'sitemap-xml', 'robots', 'robots-txt', 'favicon', 'static', 'assets', 'images', 'fonts', 'share', 'feed', 'docs',
  'openapi', 'verify-email', 'reset-password', 'reset-password-confirm', 'payment', 'payments', 'checkout',
  'questions', 'questions-asked', 'questions-curated', 'question', 'claim', 'status', 'health', 'ready', 'metrics',
  'internal', 'webhooks', 'stripe', 'index', 'home', 'new', 'edit',
  // the platform and its people
  'www', 'ques', 'ques-app', 'official', 'staff', 'team', 'operator', 'operators', 'moderator', 'security',
  'abuse', 'contact', 'about', 'blog', 'mail', 'email', 'billing', 'root', 'system', 'null', 'undefined', 'guest',
  'me', 'user', 'users', 'profile', 'handle', 'handles', 'auth', 'oauth', 'app', 'dashboard',
]);

/** What a person typed, as a handle is compared: surrounding blanks dropped, A–Z lowered (nothing else is mapped). */
export function normalizeHandle(raw: string): string {
  return raw.trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * Why `raw` cannot be a handle (a message in the spec's voice), or null when it can. Only the shape and reserved
 * words: whether it is free is the server's to say. A look-alike ("а" from Cyrillic, full-width "ａ") is refused,
 * never transliterated: two handles that look the same must not lead to two people.
 */
export function handleProblem(raw: string): string | null {
  const handle = normalizeHandle(raw);
  if (!handle) return HANDLE_MESSAGES.required;
  if (/\s/.test(handle)) return HANDLE_MESSAGES.spaces;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(handle)) return HANDLE_MESSAGES.lookalike;
  // Before the length: "q" is refused as the app's word, which says more than "3 to 30".
  if (RESERVED_HANDLES.has(handle)) return HANDLE_MESSAGES.reserved;
  if (!/^[a-z0-9-]+$/.test(handle) || handle.length < HANDLE_MIN || handle.length > HANDLE_MAX) return HANDLE_MESSAGES.shape;
  if (handle.startsWith('-') || handle.endsWith('-') || handle.includes('--')) return HANDLE_MESSAGES.hyphens;
  return null;
}

/**
 * The default handle from a name (spec §3's derivation, made to fit the rule): lowercase, accents dropped, every run
 * of other characters one hyphen, none at the ends, at most 30 characters. May still be too short or reserved:
 * `handleCandidates` gives the ones to try.
 */
export function handleFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, HANDLE_MAX)
    .replace(/-+$/g, '');
}

/** The handles a name leads to, in order: `mira-castell`, `mira-castell-2`, … (each a valid handle). */
export function* handleCandidates(name: string): Generator<string> {
  const base = handleFromName(name) || 'owner';
  if (!handleProblem(base)) yield base;
  const stem = base.slice(0, HANDLE_MAX - 6).replace(/-+$/g, '') || 'owner';
  for (let n = 2; n < 100_000; n += 1) {
    const candidate = `${stem}-${n}`;
    if (!handleProblem(candidate)) yield candidate;
  }
}

/** `GET /api/handles/:handle/availability`: free or not, and why not (nothing about who holds it). */
export interface HandleAvailability {
  handle: string;
  available: boolean;
  /** Why not, in the words shown under the field. */
  reason?: string;
}
