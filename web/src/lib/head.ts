import { createContext, useContext, useEffect } from 'react';
import {
  defaultMeta,
  FEED_TYPE,
  headTags,
  JSON_LD_ID,
  pageMeta,
  valueAttribute,
  type HeadTag,
  type PageMeta,
} from '@ques/contracts/core';

/**
 * The site's public origin as the server was configured with it: the BFF serves every page with its canonical link on
 * PUBLIC_ORIGIN (a build with QUES_SITE_ORIGIN writes it into index.html). Read on first use, before the app changes
 * any tag. A build without QUES_SITE_ORIGIN served by something else (`vite dev`, tests) carries the `.invalid`
 * placeholder, or no link: then it is this page's origin.
 */
let origin: string | undefined;
/** The server render's origin (entry-server.tsx): there is no document to read it from. */
export function setSiteOrigin(value: string): void {
  origin = value.replace(/\/+$/, '');
}
export function siteOrigin(): string {
  if (origin) return origin;
  const canonical = new URL(document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href || window.location.href);
  origin = canonical.hostname.endsWith('.invalid') ? window.location.origin : canonical.origin;
  return origin;
}

/** Set by the server render: receives the metadata the rendered page declares (no effects run on a server). */
export const HeadCollector = createContext<((meta: PageMeta) => void) | null>(null);

/** Updates the tag index.html (or the server) already put there, or adds it. */
function setTag(tag: Exclude<HeadTag, { kind: 'title' }>): void {
  const typed = tag.type ? `[type="${tag.type}"]` : '';
  let el = document.head.querySelector(`${tag.kind}[${tag.attribute}="${tag.key}"]${typed}`);
  if (!el) {
    el = document.head.appendChild(document.createElement(tag.kind));
    el.setAttribute(tag.attribute, tag.key);
    if (tag.type) el.setAttribute('type', tag.type);
  }
  if (tag.title) el.setAttribute('title', tag.title);
  el.setAttribute(valueAttribute(tag.kind), tag.value);
}

/** Sets the same tags the BFF renders into the HTML (`@ques/contracts/core` `headTags`), and the one JSON-LD script. */
export function applyHead(meta: PageMeta): void {
  for (const tag of headTags(meta)) {
    if (tag.kind === 'title') document.title = tag.text;
    else setTag(tag);
  }
  // A page without a feed (issue 15) leaves none of another page's behind.
  if (!meta.feed) document.head.querySelector(`link[rel="alternate"][type="${FEED_TYPE}"]`)?.remove();
  document.getElementById(JSON_LD_ID)?.remove();
  if (meta.jsonLd) {
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.id = JSON_LD_ID;
    // Text of a script element is not parsed as HTML: no escaping needed (the BFF's HTML uses `jsonForScript`).
    script.textContent = JSON.stringify(meta.jsonLd);
    document.head.appendChild(script);
  }
}

/**
 * Sets the page's metadata while the component is mounted and puts the defaults back afterwards.
 * Pass `null` while data is loading to keep whatever is there.
 */
export function useDocumentHead(meta: PageMeta | null): void {
  const key = meta ? JSON.stringify(meta) : null;
  // The server render (entry-server.tsx) takes the page's tags from here: one render, one set of tags.
  const collect = useContext(HeadCollector);
  if (collect && meta) collect(meta);
  useEffect(() => {
    if (!key) return;
    applyHead(JSON.parse(key) as PageMeta);
    return () => applyHead(defaultMeta(siteOrigin(), window.location.pathname));
  }, [key]);
}

/** A page without data of its own: its title, description and canonical path. */
export function usePageHead(title: string, description: string, path: string): void {
  useDocumentHead(pageMeta(siteOrigin(), { title, description, path }));
}
