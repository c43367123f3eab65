import type { PublicQuestion } from '../questions.js';
import { excerpt, profilePath, STRUCTURED_DATA_QUESTIONS, trimOrigin, type PageMeta } from './page-meta.js';
import { feedPath, profileImagePath, trustStatsJsonLd, type ShareProfileFields, type TrustStats } from './reach.js';

export type ProfileFields = ShareProfileFields;
export type AnswerFields = Pick<PublicQuestion, 'question' | 'answer'>;

/** Spec §2 public profile: "{name} — Ask Me Anything", bio excerpt, canonical, avatar, FAQPage of the first 2 answers. */
export function profileMeta(
  origin: string,
  profile: ProfileFields,
  answers: readonly AnswerFields[],
  trust?: TrustStats | null,
): PageMeta {
  const base = trimOrigin(origin);
  const first = answers.slice(0, STRUCTURED_DATA_QUESTIONS);
  // Issue 15: the owner's trust stats once established (docs/adr/0029), as the person's properties.
  const stats = trustStatsJsonLd(trust);
  const person = stats
    ? { '@type': 'Person', name: profile.name, url: `${base}${profilePath(profile.username)}`, additionalProperty: stats }
    : null;
  return {
    title: `${profile.name} — Ask Me Anything`,
    description: profile.bio?.trim()
      ? excerpt(profile.bio)
      : `Ask ${profile.name} a question on Ques and read the answers they have already given.`,
    canonical: `${base}${profilePath(profile.username)}`,
    // Issue 15: the profile's own share card (1200×630, named by what it shows).
    image: `${base}${profileImagePath(profile)}`,
    twitterCard: 'summary_large_image',
    ogType: 'profile',
    jsonLd:
      first.length > 0
        ? {
            '@context': 'https://schema.org',
            '@type': 'FAQPage',
            mainEntity: first.map((q) => ({
              '@type': 'Question',
              name: q.question,
              acceptedAnswer: { '@type': 'Answer', text: q.answer },
            })),
            ...(person ? { about: person } : {}),
          }
        : person
          ? { '@context': 'https://schema.org', '@type': 'ProfilePage', mainEntity: person }
          : null,
    feed: { href: `${base}${feedPath(profile.username)}`, title: `${profile.name} — answers on Ques` },
  };
}
