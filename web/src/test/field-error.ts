/**
 * The error shown under a control, found the way a screen reader finds it: through its `aria-describedby` (the
 * `-error` id `Field` gives it). Null when the control points at no error.
 */
export function errorOf(control: HTMLElement): string | null {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.length ? (document.getElementById(ids[0]!)?.textContent ?? null) : null;
}
