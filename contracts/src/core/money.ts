/*
 * How money reads on screen. Amounts reach the browser in two units (spec §3: a question's `tip` is dollars; the
 * ledger's amounts are cents), so there is one formatter for each.
 */

/** "$5", "$12.50": a tip in dollars, without cents when it is whole. */
export function formatDollars(dollars: number): string {
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}

/** "$4.50", "€12.00": an amount in cents of `currency` (an ISO code such as `usd`), always with cents. */
export function formatCents(cents: number, currency = 'usd'): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
  } catch {
    return `$${(cents / 100).toFixed(2)}`;
  }
}

/*
 * The one place money changes unit. Inside every service and event, money is integer cents; the spec's /api speaks
 * dollars in a few places (a question's `tip`, the checkout's `donationAmount`, tip options "$5"), converted here at
 * the edge and nowhere else.
 */

/** Dollars as the /api carries them (5, 12.5) → integer cents (500, 1250); null when not a finite, non-negative amount. */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars) || dollars < 0) return null;
  return Math.round(dollars * 100);
}

/** Integer cents → dollars for the /api (500 → 5, 1250 → 12.5). */
export function centsToDollars(cents: number): number {
  return cents / 100;
}
