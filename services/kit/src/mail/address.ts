/**
 * The address as caps and blocks see it (ADR 0054): lower case, a `+tag` dropped, and for Gmail (which ignores dots
 * and answers to googlemail.com too) the dots gone — `Block.Me+1@GoogleMail.com` is `blockme@gmail.com`. Pure.
 */
export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}
