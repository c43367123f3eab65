/**
 * The only script a server-rendered public page loads up front (docs/adr/0024). The HTML is complete without
 * JavaScript (links, text, the answers); the app (main.tsx, React and the page's chunk) is imported and hydrates the
 * page on the visitor's first sign of intent — a pointer over or on the page, a touch, a key, focus — or at once when
 * the page needs it (no server data: a failed upstream left the loading texts, or a signed-in visitor), or once a
 * live page (`data-hydrate-after-paint`: the status page, ADR 0058) has loaded and painted. A button
 * clicked before the app is there is clicked again once React owns it, so the first click is never lost.
 *
 * The app's URL comes from the page (`data-app` on this script's element, written by the BFF), and is imported
 * without Vite's preload helper, which lives in the app's shared chunk: this file must not import anything.
 */
const SCRIPT_ID = 'ques-app';
const INTENT = ['pointerover', 'pointerdown', 'touchstart', 'keydown', 'focusin', 'wheel'] as const;
const SIGNED_IN_KEY = 'accessToken';
// How long a held click waits for React to own its button: by the clock, not a count of frames (a busy phone
// hydrating the app draws fewer frames, and the click was lost).
const REPLAY_WITHIN_MS = 20_000;

let started = false;
const pending: HTMLElement[] = [];

function signedIn(): boolean {
  try {
    return Boolean(window.localStorage.getItem(SIGNED_IN_KEY));
  } catch {
    return false;
  }
}

/** True once React attached its props to the element (hydrated). */
const hydrated = (el: Element) => Object.keys(el).some((key) => key.startsWith('__reactProps$'));

/**
 * The same button after React took the page over: the element itself (hydration keeps the server's nodes: the answers
 * grid's columns are CSS alone), or — should a render replace it with new nodes — its twin by class and text.
 */
function twin(el: HTMLElement): HTMLElement | undefined {
  if (el.isConnected) return el;
  return [...document.querySelectorAll<HTMLElement>('button')].find(
    (b) => b.className === el.className && b.textContent === el.textContent,
  );
}

/** Calls `then` once the page stopped changing for a moment (hydration and its first effects done). */
function whenSettled(then: () => void): void {
  let changedAt = performance.now();
  const observer = new MutationObserver(() => void (changedAt = performance.now()));
  observer.observe(document.getElementById('root') ?? document.body, { childList: true, subtree: true });
  const check = () => {
    if (performance.now() - changedAt < 150) return void requestAnimationFrame(check);
    observer.disconnect();
    then();
  };
  requestAnimationFrame(check);
}

/** Clicks the held button again once React owns it and the page settled. */
function replay(el: HTMLElement, until = performance.now() + REPLAY_WITHIN_MS): void {
  const target = twin(el);
  if (target && hydrated(target)) return whenSettled(() => twin(el)?.click());
  if (performance.now() < until) requestAnimationFrame(() => replay(el, until));
}

function start(): void {
  if (started) return;
  started = true;
  for (const type of INTENT) document.removeEventListener(type, start, true);
  const src = document.getElementById(SCRIPT_ID)?.getAttribute('data-app');
  if (!src) return;
  import(/* @vite-ignore */ src)
    .then(() => {
      document.removeEventListener('click', hold, true);
      for (const el of pending.splice(0)) replay(el);
    })
    .catch((err: unknown) => {
      document.removeEventListener('click', hold, true);
      console.error('The app failed to load', err);
    });
}

/** A button pressed before the app is there: held, and pressed again once it is (links work without the app). */
function hold(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.('button');
  if (!button) return;
  event.preventDefault();
  event.stopPropagation();
  if (!pending.includes(button)) pending.push(button);
  start();
}

document.addEventListener('click', hold, true);
const root = document.documentElement;
if (root.hasAttribute('data-hydrate-now') || signedIn()) start();
else {
  for (const type of INTENT) document.addEventListener(type, start, { capture: true, passive: true });
  // A live page (the status page's countdown and polling) hydrates once loaded and painted: the app's download then
  // never competes with the first paint.
  if (root.hasAttribute('data-hydrate-after-paint'))
    window.addEventListener('load', () => requestAnimationFrame(() => setTimeout(start)));
}
