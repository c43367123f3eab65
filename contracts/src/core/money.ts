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
