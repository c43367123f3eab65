import { useEffect } from 'react';
import {
  defaultMeta,
  headTags,
  JSON_LD_ID,
  jsonForScript,
  pageMeta,
  type HeadTag,
  type PageMeta,
} from '@ques/contracts/core';

/**
 * The site's public origin as the server was configured with it. Every HTML page the BFF serves carries a canonical
 * link on its configured public origin (and a build with QUES_SITE_ORIGIN writes it into index.html); read once,
 * before the app changes any tag. Without one (tests, `vite dev` without the variable) it is this page's origin.
 */
function configuredOrigin(): string {
  const href = document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  try {
    if (href) return new URL(href).origin;
  } catch {
    // not a URL: use the page's own origin
  }
  return window.location.origin;
}
export const siteOrigin = configuredOrigin();

const selectorOf = (tag: Exclude<HeadTag, { kind: 'title' }>) =>
  tag.kind === 'link' ? `link[rel="${tag.rel}"]` : `meta[${tag.attribute}="${tag.key}"]`;

/** Updates the tag index.html (or the server) already put there, or adds it. */
function setTag(tag: Exclude<HeadTag, { kind: 'title' }>): void {
  let el = document.head.querySelector<HTMLElement>(selectorOf(tag));
  if (!el) {
    el = document.createElement(tag.kind);
    if (tag.kind === 'link') el.setAttribute('rel', tag.rel);
    else el.setAttribute(tag.attribute, tag.key);
    document.head.appendChild(el);
  }
  if (tag.kind === 'link') el.setAttribute('href', tag.href);
  else el.setAttribute('content', tag.content);
}

/** Sets the same tags the BFF renders into the HTML (`@ques/contracts/core` `headTags`), and the one JSON-LD script. */
export function applyHead(meta: PageMeta): void {
  for (const tag of headTags(meta)) {
    if (tag.kind === 'title') document.title = tag.text;
    else setTag(tag);
  }
  document.getElementById(JSON_LD_ID)?.remove();
  if (meta.jsonLd) {
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.id = JSON_LD_ID;
    script.textContent = jsonForScript(meta.jsonLd);
    document.head.appendChild(script);
  }
}

/**
 * Sets the page's metadata while the component is mounted and puts the defaults back afterwards.
 * Pass `null` while data is loading to keep whatever is there.
 */
export function useDocumentHead(meta: PageMeta | null): void {
  const key = meta ? JSON.stringify(meta) : null;
  useEffect(() => {
    if (!key) return;
    applyHead(JSON.parse(key) as PageMeta);
    return () => applyHead(defaultMeta(siteOrigin, window.location.pathname));
  }, [key]);
}

/** A page without data of its own: its title, description and canonical path. */
export function usePageHead(title: string, description: string, path: string): void {
  useDocumentHead(pageMeta(siteOrigin, { title, description, path }));
}
