import { openReport } from '../../lib/report';
import { profilePath, questionMeta } from '@ques/contracts/core';
import { Link, useParams } from '../../lib/router';
import { Avatar } from '../../components/Avatar';
import { ErrorBanner } from '../../components/Banner';
import { PageLoading } from '../../components/PageState';
import { ApiError } from '../../lib/api';
import { themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { siteOrigin, useDocumentHead } from '../../lib/head';
import { fetchPublicProfile } from '../../lib/public-profile';
import { formatDate } from '../../lib/text';
import { pageDataKeys, usePageData, type AnswerData } from '../../lib/ssr';
import { useApiData } from '../../lib/use-api-data';
import { fetchQuestion } from './api';
import './question.css';

const NOT_AVAILABLE = 'This answer is not available.';

/** Question and owner; "not available" unless it is a published answer of this owner. */
async function loadAnswer(id: string, username: string, signal: AbortSignal) {
  const [question, profile] = await Promise.all([fetchQuestion(id, signal), fetchPublicProfile(username, signal)]);
  const published = Boolean(question.answer?.trim()) && question.displayOnProfile !== false && !question.deletedByReceiver;
  const belongs = (question.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
  if (!published || !belongs) throw new Error(NOT_AVAILABLE);
  return { question, profile };
}

function errorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return NOT_AVAILABLE;
  return (err as Error | undefined)?.message || 'Failed to load this answer.';
}

/** Public answered-question page (spec §2 "Answered-question page"): "Loading" until both requests finished. */
export default function QuestionPage() {
  const { username = '', id = '' } = useParams();
  const initial = usePageData<AnswerData>(pageDataKeys.answer(id));
  const answer = useApiData((signal) => loadAnswer(id, username, signal), [id, username], initial);
  const data = answer.data;
  const error = answer.status === 'error' ? errorMessage(answer.error) : '';

  useDocumentHead(data ? questionMeta(siteOrigin(), data.profile, data.question) : null);

  if (error) {
    return (
      <section className="page page--narrow">
        <ErrorBanner>Error: {error}</ErrorBanner>
        <p>
          <Link to={profilePath(username)} className="text-link">
            See the answers on this profile
          </Link>
        </p>
      </section>
    );
  }
  if (!data) return <PageLoading />;

  const { question, profile } = data;
  const ownerPath = profilePath(profile.username);
  return (
    <div className="qa-page" style={themeVars(profile.brandColorMain, profile.brandColorLight)}>
      <article className="qa-page__article">
        <Link to={ownerPath} className="qa-page__owner">
          <Avatar name={profile.name} url={profile.avatarUrl} size={AVATAR_SIZE} priority alt="" />
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
        <Link to={ownerPath} className="button button--primary">
          View more answers from {profile.name}
        </Link>
        <p className="qa-page__report">
          <button type="button" className="text-link text-link--small link-button" onClick={() => openReport({ kind: 'answer', questionId: question.id, username: profile.username })}>
            Report this answer
          </button>
        </p>
      </article>
    </div>
  );
}
