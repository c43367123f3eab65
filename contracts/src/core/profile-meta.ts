import type { PublicProfile } from '../identity.js';
import type { PublicQuestion } from '../questions.js';
import { excerpt, profilePath, shareImage, STRUCTURED_DATA_QUESTIONS, trimOrigin, type PageMeta } from './page-meta.js';

export type ProfileFields = Pick<PublicProfile, 'username' | 'name' | 'bio' | 'avatarUrl'>;
export type AnswerFields = Pick<PublicQuestion, 'question' | 'answer'>;

/** Spec §2 public profile: "{name} — Ask Me Anything", bio excerpt, canonical, avatar, FAQPage of the first 2 answers. */
export function profileMeta(origin: string, profile: ProfileFields, answers: readonly AnswerFields[]): PageMeta {
  const base = trimOrigin(origin);
  const first = answers.slice(0, STRUCTURED_DATA_QUESTIONS);
  return {
    title: `${profile.name} — Ask Me Anything`,
    description: profile.bio?.trim()
      ? excerpt(profile.bio)
      : `Ask ${profile.name} a question on Ques and read the answers they have already given.`,
    canonical: `${base}${profilePath(profile.username)}`,
    ...shareImage(base, profile.avatarUrl),
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
          }
        : null,
  };
}
