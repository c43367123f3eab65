/**
 * "Contact support" for everyone, guests included (issue 28): the footer and the status page only dispatch this
 * event; the app shell opens the support dialog (its own chunk), as it does for the header's menu.
 */
export const SUPPORT_EVENT = 'ques:support';

export function openSupport(): void {
  window.dispatchEvent(new Event(SUPPORT_EVENT));
}
