/**
 * The profile page chunk, imported once. main.tsx starts this import (and the data fetches) before React
 * renders when the first URL is an /ask page, so chunk and data download in parallel with the app shell.
 */
let pending: Promise<typeof import('./ProfilePage')> | undefined;
export function loadProfilePage() {
  pending ??= import('./ProfilePage');
  return pending;
}
