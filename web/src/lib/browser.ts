/** Full-page navigations, in one module so tests can replace them (jsdom cannot leave the page). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
