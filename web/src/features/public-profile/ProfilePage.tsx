import { openReport } from '../../lib/report';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { profileMeta, profilePath, questionPath, type PublicProfile, type PublicQuestion } from '@ques/contracts/core';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import { PublicTrustStats } from '../../components/TrustStats';
import { copyLinkItem, MoreMenu, type MoreMenuItem } from '../../components/MoreMenu';
import { NotFound } from '../../components/NotFound';
import { ErrorBanner, LoadingText, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { useAuth } from '../../lib/auth/auth-context';
import { themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { siteOrigin, useDocumentHead } from '../../lib/head';
import { publicAnswers } from './api';
import { FlipCard } from './FlipCard';
import { AnswerGrid } from './AnswerGrid';
import { collectTags, TagFilter } from './TagFilter';
import { useCanonicalHandle } from '../../lib/public-profile';
import { usePublicPage } from './use-public-page';
import { AskingGate } from './AskingGate';
import './profile.css';

/**
 * The ask modal, handed in by the app (features do not import each other): a lazy component and its loader, which
 * the page starts once it is idle or the button is hovered, so a click opens the modal at once.
 */
export interface AskModalSlot {
  Modal: ComponentType<{ recipient: PublicProfile; onClose: () => void; onPosted?: () => void }>;
  preload: () => Promise<unknown>;
}

const cardKey = (q: PublicQuestion) => q._id;

export default function ProfilePage({ ask }: { ask: AskModalSlot }) {
  const params = useParams();
  const { user } = useAuth();
  const username = params.username ?? user?.username ?? '';
  // One page per handle: another handle (an old one replaced by its new one, issue 28) starts from the loading state,
  // never from the previous handle's profile and answers.
  return <HandlePage key={username.toLowerCase()} ask={ask} username={username} routeHandle={params.username} />;
}

function HandlePage({ ask, username, routeHandle }: { ask: AskModalSlot; username: string; routeHandle: string | undefined }) {
  const { user, authLoading } = useAuth();
  const page = usePublicPage(username);
  // An old handle (issue 28): the address moves to the new one; until then the page stays in its loading state.
  const moving = useCanonicalHandle(routeHandle, page.profile);
  const profile = moving ? null : page.profile;
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedTag = searchParams.get('tag');
  const [askOpen, setAskOpen] = useState(false);
  const [success, showSuccess] = useSuccessMessage();
  // Back from the hosted checkout (spec §4 tipped questions): say what happened, then tidy the address.
  const [checkoutReturn] = useState(() => checkoutOutcome(searchParams.get('checkout')));
  useEffect(() => {
    if (!searchParams.has('checkout')) return;
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const key of CHECKOUT_PARAMS) next.delete(key);
        return next;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  const answers = useMemo(
    () => publicAnswers(page.questions, profile?.username ?? username),
    [page.questions, profile?.username, username],
  );
  const tags = useMemo(() => collectTags(answers), [answers]);
  const visible = useMemo(
    () => (selectedTag ? answers.filter((q) => q.tags?.includes(selectedTag)) : answers),
    [answers, selectedTag],
  );

  useDocumentHead(profile ? profileMeta(siteOrigin(), profile, answers, page.trust) : null);

  const isOwner = Boolean(user && profile && user.username.toLowerCase() === profile.username.toLowerCase());
  const isArchive = Boolean(profile?.archiveProfile);
  const canAsk = Boolean(profile) && !isArchive && !isOwner && !authLoading;

  // Load the modal's code once the page is idle, so the click opens it at once.
  useEffect(() => {
    if (!canAsk) return;
    const preload = () => void ask.preload();
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(preload);
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(preload, 1500);
    return () => window.clearTimeout(timer);
  }, [canAsk, ask]);

  const selectTag = useCallback(
    (tag: string | null) => {
      setSearchParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (tag) next.set('tag', tag);
          else next.delete('tag');
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  if (page.profileNotFound) return <NotFound />;
  if (page.profileError) {
    return (
      <section className="page page--narrow">
        <ErrorBanner>Error: {page.profileError}</ErrorBanner>
        <p>
          <Link to="/" className="text-link">
            Back to the home page
          </Link>
        </p>
      </section>
    );
  }

  return (
    <div className="profile" style={profile ? themeVars(profile.brandColorMain, profile.brandColorLight) : undefined}>
      <div className="profile__banner" aria-hidden="true" />
      <div className="profile__inner">
        {!profile ? (
          <div className="profile__head profile__head--loading">
            <span className="avatar avatar--placeholder" style={{ width: AVATAR_SIZE, height: AVATAR_SIZE }} />
            <LoadingText>Loading profile...</LoadingText>
          </div>
        ) : (
          <>
            {isOwner ? (
              <div className="notice notice--owner">
                <p>You are viewing your own public page</p>
                <Link to="/admin/questions-curated" className="button button--small button--primary">
                  Curate my own Q&amp;As
                </Link>
              </div>
            ) : null}
            {isArchive ? (
              <div className="notice notice--archive">
                <p>
                  This page is a curated archive of answers {profile.name} gave in public interviews, podcasts and
                  social posts. It is not affiliated with, run or endorsed by {profile.name}.
                </p>
                <p>
                  <Link to={`/ask/${encodeURIComponent(profile.username)}/claim`} className="text-link">
                    Is this you? Claim this profile
                  </Link>
                </p>
              </div>
            ) : null}
            <header className="profile__head">
              <Avatar name={profile.name} url={profile.avatarUrl} size={AVATAR_SIZE} priority className="profile__avatar" />
              <div className="profile__identity">
                <h1 className="profile__name">{profile.name}</h1>
                {isArchive ? <span className="badge">Non-affiliated profile</span> : null}
              </div>
              {profile.bio ? <p className="profile__bio">{profile.bio}</p> : null}
              <PublicTrustStats stats={page.trust} />
              <div className="profile__cta">
                {canAsk ? (
                  <AskingGate username={profile.username} name={profile.name}>
                    <button
                      type="button"
                      className="button button--primary button--large"
                      onPointerEnter={() => void ask.preload()}
                      onFocus={() => void ask.preload()}
                      onClick={() => setAskOpen(true)}
                    >
                      Ask {profile.name} a Question
                    </button>
                  </AskingGate>
                ) : null}
              </div>
              {/* After the ask button in reading order; placed over the banner's corner (profile.css). */}
              <MoreMenu className="profile__more" label="More actions for this page" items={pageActions(profile, isOwner)} />
            </header>
          </>
        )}

        {profile && checkoutReturn ? <CheckoutNotice outcome={checkoutReturn} name={profile.name} /> : null}
        <SuccessBanner message={success} className="profile__success" />

        <section className="profile__answers" aria-labelledby="answers-heading">
          <h2 id="answers-heading" className="visually-hidden">
            Answers
          </h2>
          {moving || page.questionsLoading ? (
            <LoadingText>Loading questions...</LoadingText>
          ) : page.questionsError ? (
            <ErrorBanner>{page.questionsError}</ErrorBanner>
          ) : answers.length === 0 ? (
            <p className="empty-state">
              {profile ? `${profile.name} hasn’t published any answers yet.` : 'No answers published yet.'}
            </p>
          ) : (
            <>
              <TagFilter tags={tags} selected={selectedTag} onSelect={selectTag} />
              {visible.length === 0 ? (
                <p className="empty-state">No answers with this tag yet.</p>
              ) : (
                <AnswerGrid
                  items={visible}
                  getKey={cardKey}
                  label={profile ? `Answers from ${profile.name}` : 'Answers'}
                  render={(q) => (
                    <FlipCard question={q} href={questionPath(profile?.username ?? username, q._id, q.question)} />
                  )}
                />
              )}
              <LoadMore
                hasMore={page.hasMore}
                loading={page.loadingMore}
                error={page.loadMoreError}
                onLoadMore={page.loadMore}
              />
            </>
          )}
        </section>
      </div>

      {askOpen && profile ? (
        <Suspense fallback={null}>
          <ask.Modal
            recipient={profile}
            onClose={() => setAskOpen(false)}
            onPosted={() => showSuccess(`Your question was sent to ${profile.name}.`)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The page's secondary actions: its link for everyone, "Report" for everyone but its owner. */
function pageActions(profile: PublicProfile, isOwner: boolean): MoreMenuItem[] {
  const link = copyLinkItem(`${siteOrigin()}${profilePath(profile.username)}`);
  if (isOwner) return [link];
  return [link, { label: 'Report this profile', onSelect: () => openReport({ kind: 'profile', username: profile.username }) }];
}

const CHECKOUT_PARAMS = ['checkout', 'questionId', 'session_id'] as const;
type CheckoutOutcome = 'success' | 'cancelled';
const checkoutOutcome = (value: string | null): CheckoutOutcome | null =>
  value === 'success' || value === 'cancelled' ? value : null;

/** What the asker sees on the owner's page after paying, or cancelling, a tip on the hosted checkout page. */
function CheckoutNotice({ outcome, name }: { outcome: CheckoutOutcome; name: string }) {
  return outcome === 'success' ? (
    <div role="status" className="profile__checkout">
      <p className="banner banner--success">
        <strong>Your question was sent to {name}.</strong> Your tip is held on your card and only charged when {name}{' '}
        answers; if they do not answer within 5 days it is released.
      </p>
    </div>
  ) : (
    <div role="status" className="profile__checkout">
      <p className="banner banner--neutral">Checkout cancelled: your question was not sent and nothing was charged.</p>
    </div>
  );
}

/** Infinite scroll with a real button as the keyboard/no-JS-observer fallback. */
function LoadMore({
  hasMore,
  loading,
  error,
  onLoadMore,
}: {
  hasMore: boolean;
  loading: boolean;
  error: string;
  onLoadMore: () => void;
}) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(onLoadMore);
  latest.current = onLoadMore;
  const auto = hasMore && !error && !loading;

  // Re-observed after every page: if the sentinel is still in view, the next page loads too.
  useEffect(() => {
    const el = sentinel.current;
    if (!auto || !el || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [auto]);

  if (!hasMore) return null;
  return (
    <div className="load-more" ref={sentinel}>
      {error ? <ErrorBanner>{error}</ErrorBanner> : null}
      {loading ? (
        <LoadingText>Loading questions...</LoadingText>
      ) : (
        <button type="button" className="button button--ghost" onClick={onLoadMore}>
          {error ? 'Try again' : 'Load more answers'}
        </button>
      )}
    </div>
  );
}
