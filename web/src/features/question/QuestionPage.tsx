import { useEffect, useState } from 'react';
import { Link, useParams } from '../../lib/router';
import { Avatar } from '../../components/Avatar';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { ApiError } from '../../lib/api';
import type { PublicProfile, Question } from '../../lib/api';
import { isDefaultAvatar } from '../../lib/avatar';
import { themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { useDocumentHead, type HeadTags } from '../../lib/head';
import { questionPath } from '../../lib/slug';
import { excerpt, formatDate } from '../../lib/text';
import { fetchPublicProfile } from '../public-profile/api';
import { fetchQuestion } from './api';
import './question.css';

type Loaded = { question: Question; profile: PublicProfile };

/** The same tags the BFF renders into the HTML for crawlers (bff/src/seo/meta.ts). */
function headFor({ question, profile }: Loaded): HeadTags {
  const canonical = questionPath(profile.username, question._id, question.question);
  return {
    title: `${question.question} — ${profile.name} on Ques`,
    description: excerpt(question.answer),
    canonical,
    image: isDefaultAvatar(profile.avatarUrl) ? undefined : profile.avatarUrl,
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
          url: new URL(canonical, window.location.origin).href,
          author: { '@type': 'Person', name: profile.name, url: new URL(`/ask/${encodeURIComponent(profile.username)}`, window.location.origin).href },
        },
      },
    },
  };
}

/** Public answered-question page (spec §2 "Answered-question page"). */
export default function QuestionPage() {
  const { username = '', id = '' } = useParams();
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    setData(null);
    setError('');
    // "Loading" until both requests finished.
    Promise.all([fetchQuestion(id, controller.signal), fetchPublicProfile(username, controller.signal)])
      .then(([question, profile]) => {
        if (controller.signal.aborted) return;
        const answered = Boolean(question.answer?.trim()) && question.displayOnProfile !== false && !question.deletedByReceiver;
        const belongs = (question.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
        if (!answered || !belongs) setError('This answer is not available.');
        else setData({ question, profile });
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) setError('This answer is not available.');
        else setError((err as Error).message || 'Failed to load this answer.');
      });
    return () => controller.abort();
  }, [id, username]);

  useDocumentHead(data ? headFor(data) : null);

  if (error) {
    return (
      <section className="page page--narrow">
        <ErrorBanner>Error: {error}</ErrorBanner>
        <p>
          <Link to={`/ask/${encodeURIComponent(username)}`} className="text-link">
            See the answers on this profile
          </Link>
        </p>
      </section>
    );
  }
  if (!data) {
    return (
      <section className="page page--narrow">
        <LoadingText>Loading</LoadingText>
      </section>
    );
  }

  const { question, profile } = data;
  const profilePath = `/ask/${encodeURIComponent(profile.username)}`;
  return (
    <div className="qa-page" style={themeVars(profile.brandColorMain, profile.brandColorLight)}>
      <article className="qa-page__article">
        <Link to={profilePath} className="qa-page__owner">
          <Avatar name={profile.name} url={profile.avatarUrl} size={AVATAR_SIZE} priority />
          <span className="qa-page__owner-name">{profile.name}</span>
        </Link>
        <p className="qa-page__kicker">Question</p>
        <h1 className="qa-page__question">{question.question}</h1>
        {question.detail ? <p className="qa-page__detail">{question.detail}</p> : null}
        <p className="qa-page__kicker">{profile.name} answered</p>
        <div className="qa-page__answer">{question.answer}</div>
        {question.source ? <p className="qa-page__source">Source: {question.source}</p> : null}
        <p className="qa-page__meta">
          <time dateTime={question.createdAt}>{formatDate(question.createdAt)}</time>
        </p>
        <Link to={profilePath} className="button button--primary">
          View more answers from {profile.name}
        </Link>
      </article>
    </div>
  );
}
