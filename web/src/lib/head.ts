import { useEffect } from 'react';
import { DEFAULT_DESCRIPTION, DEFAULT_SHARE_IMAGE, DEFAULT_TITLE } from './constants';

export interface HeadTags {
  title: string;
  description: string;
  /** Path or absolute URL; made absolute against the current origin. */
  canonical: string;
  /** Path or absolute URL of the social-share image. */
  image?: string;
  /** schema.org structured data, rendered as one JSON-LD script. */
  jsonLd?: object | null;
}

const JSON_LD_ID = 'ques-structured-data';

function absolute(url: string): string {
  try {
    return new URL(url, window.location.origin).href;
  } catch {
    return url;
  }
}

/** Updates the tag index.html already has (between the meta comments), or adds it. */
function setTag(selector: string, create: () => HTMLElement, attr: 'content' | 'href', value: string) {
  let el = document.head.querySelector<HTMLElement>(selector);
  if (!el) {
    el = create();
    document.head.appendChild(el);
  }
  el.setAttribute(attr, value);
}

const meta = (key: 'name' | 'property', name: string) => () => {
  const el = document.createElement('meta');
  el.setAttribute(key, name);
  return el;
};

export function applyHead(tags: HeadTags): void {
  const canonical = absolute(tags.canonical);
  const image = absolute(tags.image ?? DEFAULT_SHARE_IMAGE);
  document.title = tags.title;
  setTag('meta[name="description"]', meta('name', 'description'), 'content', tags.description);
  setTag(
    'link[rel="canonical"]',
    () => {
      const el = document.createElement('link');
      el.rel = 'canonical';
      return el;
    },
    'href',
    canonical,
  );
  setTag('meta[property="og:title"]', meta('property', 'og:title'), 'content', tags.title);
  setTag('meta[property="og:description"]', meta('property', 'og:description'), 'content', tags.description);
  setTag('meta[property="og:url"]', meta('property', 'og:url'), 'content', canonical);
  setTag('meta[property="og:image"]', meta('property', 'og:image'), 'content', image);
  setTag('meta[name="twitter:title"]', meta('name', 'twitter:title'), 'content', tags.title);
  setTag('meta[name="twitter:description"]', meta('name', 'twitter:description'), 'content', tags.description);
  setTag('meta[name="twitter:image"]', meta('name', 'twitter:image'), 'content', image);

  document.getElementById(JSON_LD_ID)?.remove();
  if (tags.jsonLd) {
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.id = JSON_LD_ID;
    // `<` escaped so user text can never close the script element.
    script.textContent = JSON.stringify(tags.jsonLd).replace(/</g, '\\u003c');
    document.head.appendChild(script);
  }
}

export const DEFAULT_HEAD: HeadTags = {
  title: DEFAULT_TITLE,
  description: DEFAULT_DESCRIPTION,
  canonical: '/',
  image: DEFAULT_SHARE_IMAGE,
  jsonLd: null,
};

/**
 * Sets the page's metadata while the component is mounted and puts the defaults back afterwards.
 * Pass `null` while data is loading to keep whatever is there.
 */
export function useDocumentHead(tags: HeadTags | null): void {
  const key = tags ? JSON.stringify(tags) : null;
  useEffect(() => {
    if (!key) return;
    applyHead(JSON.parse(key) as HeadTags);
    return () => applyHead({ ...DEFAULT_HEAD, canonical: window.location.pathname });
  }, [key]);
}
