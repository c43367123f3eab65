import { openReport } from '../../lib/report';
import { profilePath, questionMeta, questionPath } from '@ques/contracts/core';
import { Link, useParams } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import { ErrorBanner } from '../../components/Banner';
import { LocalDate } from '../../components/LocalDate';
import { copyLinkItem, MoreMenu, type MoreMenuItem } from '../../components/MoreMenu';
import { NotFound } from '../../components/NotFound';
import { PageLoading } from '../../components/PageState';
import { ApiError } from '../../lib/api';
import { themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { useAuth } from '../../lib/auth/auth-context';
import { siteOrigin, useDocumentHead } from '../../lib/head';
import { fetchPublicProfile, useCanonicalHandle } from '../../lib/public-profile';
import { pageDataKeys, usePageData, type AnswerData } from '../../lib/ssr';
import { useApiData } from '../../lib/use-api-data';
import { fetchQuestion } from './api';
import './question.css';

const NOT_AVAILABLE = 'This answer is not available.';

/** Question and owner; not found (404) unless it is a published answer of this owner. */
async function loadAnswer(id: string, username: string, signal: AbortSignal) {
  const [question, profile] = await Promise.all([fetchQuestion(id, signal), fetchPublicProfile(username, signal)]);
  const published = Boolean(question.answer?.trim()) && question.displayOnProfile !== false && !question.deletedByReceiver;
  const belongs = (question.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
  if (!published || !belongs) throw new ApiError(404, NOT_AVAILABLE);
  return { question, profile };
}

/** No such answer to show: unknown, not this owner's, not public, or an id that cannot be one (a 400). */
const isMissing = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 400);
const errorMessage = (err: unknown) => (err as Error | undefined)?.message || 'Failed to load this answer.';

/** Public answered-question page (spec §2 "Answered-question page"): "Loading" until both requests finished. */
export default function QuestionPage() {
  const { username = '', id = '' } = useParams();
  // One page per handle and answer: the new handle's page (issue 28) starts from loading, not from the old one's data.
  return <AnswerPage key={`${username.toLowerCase()}/${id}`} username={username} id={id} />;
}

function AnswerPage({ username, id }: { username: string; id: string }) {
  const initial = usePageData<AnswerData>(pageDataKeys.answer(id));
  const answer = useApiData((signal) => loadAnswer(id, username, signal), [id, username], initial);
  // An old handle (issue 28): the address moves to the new one; the answer shows only under it.
  const moving = useCanonicalHandle(username, answer.data?.profile);
  const data = moving ? undefined : answer.data;
  const error = answer.status === 'error' ? errorMessage(answer.error) : '';
  const { user } = useAuth();

  useDocumentHead(data ? questionMeta(siteOrigin(), data.profile, data.question) : null);

  if (answer.status === 'error' && isMissing(answer.error)) return <NotFound />;
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
  const isOwner = user?.username.toLowerCase() === profile.username.toLowerCase();
  const actions: MoreMenuItem[] = [copyLinkItem(`${siteOrigin()}${questionPath(profile.username, question._id, question.question)}`)];
  if (!isOwner)
    actions.push({
      label: 'Report this answer',
      onSelect: () => openReport({ kind: 'answer', questionId: question.id, username: profile.username }),
    });
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
          <LocalDate iso={question.answeredAt ?? question.createdAt} />
        </p>
        <Link to={ownerPath} className="button button--primary">
          View more answers from {profile.name}
        </Link>
        {/* Last in reading order, shown in the article's top corner (question.css); the owner's has no "Report". */}
        <MoreMenu className="qa-page__more" label="More actions for this answer" items={actions} />
      </article>
    </div>
  );
}
