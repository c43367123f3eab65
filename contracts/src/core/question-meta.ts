import type { PublicQuestion } from '../questions.js';
import { excerpt, profilePath, questionPath, trimOrigin, type PageMeta } from './page-meta.js';
import { answerImagePath } from './reach.js';
import type { ProfileFields } from './profile-meta.js';

/** Spec §2 answered-question page: answer excerpt as description, canonical with the slug, QAPage data. */
export function questionMeta(
  origin: string,
  profile: ProfileFields,
  question: Pick<PublicQuestion, '_id' | 'question' | 'detail' | 'answer' | 'createdAt' | 'updatedAt' | 'answeredAt'>,
): PageMeta {
  const base = trimOrigin(origin);
  const canonical = `${base}${questionPath(profile.username, question._id, question.question)}`;
  return {
    title: `${question.question} — ${profile.name} on Ques`,
    description: excerpt(question.answer),
    canonical,
    // Issue 15: the answer's share card (docs/adr/0029).
    image: `${base}${answerImagePath(profile, question)}`,
    twitterCard: 'summary_large_image',
    ogType: 'article',
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'QAPage',
      mainEntity: {
        '@type': 'Question',
        name: question.question,
        text: question.detail || question.question,
        answerCount: 1,
        dateCreated: question.createdAt,
        acceptedAnswer: {
          '@type': 'Answer',
          text: question.answer,
          dateCreated: question.answeredAt ?? question.updatedAt ?? question.createdAt,
          url: canonical,
          author: { '@type': 'Person', name: profile.name, url: `${base}${profilePath(profile.username)}` },
        },
      },
    },
  };
}
