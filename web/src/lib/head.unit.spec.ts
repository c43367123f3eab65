import { defaultMeta, headTags, profileMeta, valueAttribute } from '@ques/contracts/core';
import { afterEach, describe, expect, it } from 'vitest';
import indexHtml from '../../index.html?raw';
import { applyHead, siteOrigin } from './head';

/** What a document says for each of the shared module's tags. */
function readTags(doc: Document, origin: string) {
  return headTags(defaultMeta(origin)).map((tag) => {
    switch (tag.kind) {
      case 'title':
        return { expected: tag.text, actual: doc.title };
      case 'link':
      case 'meta':
        return {
          expected: tag.value,
          actual: doc.querySelector(`${tag.kind}[${tag.attribute}="${tag.key}"]`)?.getAttribute(valueAttribute(tag.kind)),
        };
      default: {
        const never: never = tag;
        return never;
      }
    }
  });
}

afterEach(() => {
  document.head.innerHTML = '';
});

describe('page metadata in the browser', () => {
  it('index.html carries the default metadata of the shared module, on the origin the build is given', () => {
    const doc = new DOMParser().parseFromString(indexHtml, 'text/html');
    for (const { expected, actual } of readTags(doc, '__SITE_ORIGIN__')) expect(actual).toBe(expected);
  });

  it('sets every tag the BFF renders, and one JSON-LD script', () => {
    const meta = profileMeta(siteOrigin(), { username: 'ada', name: 'Ada', bio: 'Hi', avatarUrl: '/a.webp' }, [
      { question: 'Q?', answer: '</script>' },
    ]);
    applyHead(meta);
    applyHead(meta);
    for (const tag of headTags(meta)) {
      if (tag.kind !== 'title')
        expect(document.head.querySelectorAll(`${tag.kind}[${tag.attribute}="${tag.key}"]`)).toHaveLength(1);
    }
    expect(document.title).toBe('Ada — Ask Me Anything');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${siteOrigin()}/ask/ada`);
    const scripts = document.head.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    expect(JSON.parse(scripts[0]!.textContent ?? '')).toMatchObject({ '@type': 'FAQPage' });
    applyHead(defaultMeta(siteOrigin()));
    expect(document.head.querySelectorAll('script[type="application/ld+json"]')).toHaveLength(0);
  });
});
