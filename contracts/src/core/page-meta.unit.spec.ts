import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars } from './money.js';
import { isDefaultAvatar, usernameFromName } from './identity.js';
import {
  DEFAULT_DESCRIPTION,
  DEFAULT_TITLE,
  defaultMeta,
  excerpt,
  headTags,
  jsonForScript,
  pageMeta,
  questionPath,
  TITLE_CHARS,
} from './page-meta.js';
import { profileMeta } from './profile-meta.js';
import { questionMeta } from './question-meta.js';
import { questionSlug } from './questions.js';

const ORIGIN = 'https://ques.test';
const ada = { username: 'ada', name: 'Ada Lovelace', bio: 'Mathematician.', avatarUrl: '/images/avatars/a/1.webp' };
const answer = (n: number) => ({
  _id: `q${n}`,
  question: `Question ${n}?`,
  detail: '',
  answer: `Answer ${n}.`,
  createdAt: '2025-04-01T10:00:00.000Z',
  updatedAt: '2025-04-02T10:00:00.000Z',
  answeredAt: '2025-04-02T09:00:00.000Z',
});

describe('questionSlug and questionPath (spec §2: lowercased, punctuation removed, spaces to hyphens)', () => {
  it('lowercases, drops punctuation, turns runs of whitespace into one hyphen', () => {
    expect(questionSlug('How Do I Start')).toBe('how-do-i-start');
    expect(questionSlug("What's your rate, per hour?!")).toBe('whats-your-rate-per-hour');
    expect(questionSlug('A/B testing: yes or no?')).toBe('ab-testing-yes-or-no');
    expect(questionSlug('  many   spaces\there \n ')).toBe('many-spaces-here');
  });
  it('keeps letters of every script, digits and hyphens; at most 120 characters; empty for punctuation only', () => {
    expect(questionSlug('Café au lait in 2025?')).toBe('café-au-lait-in-2025');
    expect(questionSlug('Is a well-known brand worth it?')).toBe('is-a-well-known-brand-worth-it');
    expect(questionSlug('word '.repeat(60))).toHaveLength(120);
    expect(questionSlug('?!…')).toBe('');
  });
  it('builds /ask/{username}/question/{id}/{slug}, encoded, without a slug segment when there is none', () => {
    expect(questionPath('ada', 'q1', 'Is it free?')).toBe('/ask/ada/question/q1/is-it-free');
    expect(questionPath('ada', 'q1', '???')).toBe('/ask/ada/question/q1');
    expect(questionPath('a b', 'x/y', 'Hi')).toBe('/ask/a%20b/question/x%2Fy/hi');
  });
});

describe('page metadata (spec §1, §2)', () => {
  it('gives the default page the spec’s title and description on the origin it is given', () => {
    expect(defaultMeta(`${ORIGIN}/`)).toEqual({
      title: DEFAULT_TITLE,
      description: DEFAULT_DESCRIPTION,
      canonical: `${ORIGIN}/`,
      image: `${ORIGIN}/images/og-default.png`,
      twitterCard: 'summary_large_image',
      ogType: 'website',
      jsonLd: null,
    });
    expect(pageMeta('http://127.0.0.1:4000', { title: 'Log in', description: 'd', path: '/login' }).canonical).toBe(
      'http://127.0.0.1:4000/login',
    );
  });

  it('describes a profile: title, bio excerpt (or a sentence), canonical, share card, feed and FAQPage of the first 2 answers', () => {
    const meta = profileMeta(ORIGIN, { ...ada, bio: 'x'.repeat(200) }, [answer(1), answer(2), answer(3)]);
    expect(meta).toMatchObject({
      title: 'Ada Lovelace — Ask Me Anything',
      canonical: `${ORIGIN}/ask/ada`,
      image: expect.stringMatching(new RegExp(`^${ORIGIN}/share/profile/ada/[0-9a-f]{16}\\.png$`)),
      twitterCard: 'summary_large_image',
      ogType: 'profile',
      feed: { href: `${ORIGIN}/ask/ada/feed.atom`, title: 'Ada Lovelace — answers on Ques' },
    });
    // The image URL changes with what the card shows (immutable caching by content).
    expect(profileMeta(ORIGIN, { ...ada, name: 'Ada King' }, []).image).not.toBe(profileMeta(ORIGIN, ada, []).image);
    expect(meta.description).toHaveLength(150);
    expect(meta.jsonLd).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [1, 2].map((n) => ({
        '@type': 'Question',
        name: `Question ${n}?`,
        acceptedAnswer: { '@type': 'Answer', text: `Answer ${n}.` },
      })),
    });
    const bare = profileMeta(ORIGIN, { ...ada, bio: ' ', avatarUrl: '/images/user-image.png?v=1' }, []);
    expect(bare.description).toBe('Ask Ada Lovelace a question on Ques and read the answers they have already given.');
    expect(bare).toMatchObject({ twitterCard: 'summary_large_image', jsonLd: null });
  });

  it('puts established trust stats (only) into the profile JSON-LD', () => {
    const stats = {
      periodDays: 90,
      windowDays: 5,
      established: true,
      figures: { answered: 6, medianAnswerSeconds: 216_000, answeredWithinWindow: 5 / 7, publicAnswers: 5 },
    };
    const withAnswers = profileMeta(ORIGIN, ada, [answer(1)], stats).jsonLd as Record<string, any>;
    expect(withAnswers['@type']).toBe('FAQPage');
    expect(withAnswers.about.additionalProperty).toEqual([
      { '@type': 'PropertyValue', name: 'Median time to answer', value: 3600, unitText: 'MIN' },
      { '@type': 'PropertyValue', name: 'Answered within 5 days', value: 71, unitText: 'P1' },
      { '@type': 'PropertyValue', name: 'Public answers', value: 5 },
    ]);
    expect((profileMeta(ORIGIN, ada, [], stats).jsonLd as Record<string, any>)['@type']).toBe('ProfilePage');
    const fresh = { ...stats, established: false, figures: null };
    expect(profileMeta(ORIGIN, ada, [], fresh).jsonLd).toBeNull();
    expect(JSON.stringify(profileMeta(ORIGIN, ada, [answer(1)], fresh).jsonLd)).not.toContain('additionalProperty');
  });

  it('describes an answer page: slugged canonical, answer excerpt, QAPage with the answer’s date and author', () => {
    const meta = questionMeta(ORIGIN, ada, { ...answer(1), question: 'Is it free?', detail: 'Asked at a talk.' });
    expect(meta.title).toBe('Is it free? — Ada Lovelace on Ques');
    expect(meta.canonical).toBe(`${ORIGIN}/ask/ada/question/q1/is-it-free`);
    expect(meta.jsonLd).toMatchObject({
      '@type': 'QAPage',
      mainEntity: {
        name: 'Is it free?',
        text: 'Asked at a talk.',
        acceptedAnswer: {
          dateCreated: '2025-04-02T09:00:00.000Z',
          url: `${ORIGIN}/ask/ada/question/q1/is-it-free`,
          author: { '@type': 'Person', name: 'Ada Lovelace', url: `${ORIGIN}/ask/ada` },
        },
      },
    });
  });

  it('points the share image at our own origin whatever the avatar URL says', () => {
    expect(profileMeta(ORIGIN, { ...ada, avatarUrl: 'javascript:alert(1)' }, []).image.startsWith(`${ORIGIN}/share/profile/`)).toBe(true);
    expect(questionMeta(ORIGIN, ada, answer(1)).image).toMatch(new RegExp(`^${ORIGIN}/share/answer/q1/[0-9a-f]{16}\\.png$`));
  });

  it('lists the preview tags first and bounds the title in every title tag', () => {
    const long = questionMeta(ORIGIN, ada, { ...answer(1), question: 'why '.repeat(80) });
    const tags = headTags(long);
    expect(tags.slice(0, 5).map((t) => (t.kind === 'title' ? t.kind : t.key))).toEqual([
      'title',
      'description',
      'canonical',
      'og:image',
      'twitter:card',
    ]);
    const titles = tags.filter((t) => (t.kind === 'title' ? true : t.key.endsWith(':title')));
    expect(titles).toHaveLength(3);
    for (const t of titles) expect(t.kind === 'title' ? t.text : t.value).toHaveLength(TITLE_CHARS);
    expect(tags).toContainEqual({ kind: 'meta', attribute: 'property', key: 'og:url', value: long.canonical });
  });

  it('keeps user text inside a JSON-LD script', () => {
    const json = jsonForScript({ text: '</script><!-- & \u2028' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ text: '</script><!-- & \u2028' });
  });

  it('excerpts: whitespace collapsed, an ellipsis only when cut', () => {
    expect(excerpt('  a \n b  ')).toBe('a b');
    expect(excerpt('abcdef', 4)).toBe('abc…');
    expect(excerpt(undefined)).toBe('');
  });
});

describe('small shared rules', () => {
  it('recognises the default avatar with or without a version or origin', () => {
    expect(isDefaultAvatar(undefined)).toBe(true);
    expect(isDefaultAvatar('/images/user-image.png?v=3')).toBe(true);
    expect(isDefaultAvatar('https://ques.test/images/user-image.png')).toBe(true);
    expect(isDefaultAvatar('/images/avatars/a/1.webp')).toBe(false);
  });
  it('derives a username from a name (spec §3)', () => {
    expect(usernameFromName('  Ada Lovelace ')).toBe('ada-lovelace');
  });
  it('formats dollars and cents', () => {
    expect(formatDollars(5)).toBe('$5');
    expect(formatDollars(12.5)).toBe('$12.50');
    expect(formatCents(450, 'usd')).toBe('$4.50');
    expect(formatCents(1200, 'eur')).toBe('€12.00');
    expect(formatCents(100, 'not a currency')).toBe('$1.00');
  });
});
