import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of lib/head (it remembers the origin it read first). */
async function freshSiteOrigin(canonical: string | null) {
  document.head.innerHTML = canonical ? `<link rel="canonical" href="${canonical}" />` : '';
  vi.resetModules();
  return (await import('./head')).siteOrigin;
}

afterEach(() => {
  document.head.innerHTML = '';
});

describe('siteOrigin', () => {
  it('is the origin of the canonical link the server wrote (its configured public origin)', async () => {
    const siteOrigin = await freshSiteOrigin('https://ques.example/ask/ada');
    expect(siteOrigin()).toBe('https://ques.example');
    // Read once: the app changing the tag later does not move it.
    document.head.innerHTML = '<link rel="canonical" href="https://elsewhere.example/" />';
    expect(siteOrigin()).toBe('https://ques.example');
  });

  it('is this page’s origin under the build’s placeholder or without a canonical link', async () => {
    expect((await freshSiteOrigin('https://site-origin.invalid/'))()).toBe(window.location.origin);
    expect((await freshSiteOrigin(null))()).toBe(window.location.origin);
  });
});
