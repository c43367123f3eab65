import { useCallback, useMemo, useState } from 'react';
import {
  ONBOARDING_PATH,
  ONBOARDING_STEPS,
  profilePath,
  type OnboardingChecklist,
  type OnboardingStep,
} from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { COPY_MESSAGES, useToast } from '../../components/Toast';
import { useAuth } from '../../lib/auth/auth-context';
import { siteOrigin, usePageHead } from '../../lib/head';
import { Link, useNavigate } from 'react-router-dom';
import { useApiData } from '../../lib/use-api-data';
import { useUnsavedGuard } from '../../lib/use-unsaved-guard';
import { fetchChecklist, markOnboarding } from './api';
import { BioStep, ColorsStep, PayoutsStep, PhotoStep, PublicAnswerStep, TipsStep, type StepProps } from './steps';
import './onboarding.css';

/** What marking the checklist says in its toast (issue 28). */
export const CHECKLIST_MARKED = {
  dismissed: 'Checklist hidden. It stays under Set-up.',
  restored: 'The checklist opens when you sign in again.',
  shared: 'Link shared',
} as const;

const TITLES: Record<OnboardingStep, string> = {
  photo: 'Add a photo',
  bio: 'Write a short bio',
  colors: 'Pick your brand colours',
  payouts: 'Connect payouts',
  tips: 'Turn tips on',
  publicAnswer: 'Publish your first Q&A',
  linkShared: 'Share your link',
};

/**
 * The owner's set-up page (issue 28, docs/adr/0056): a checklist whose state the server keeps (facts read from the
 * profile, payments and questions; "shared" and "dismissed" marked), each step done here or one click away, and a
 * visible end — "You're live — share your link".
 */
export default function SetupPage() {
  usePageHead('Set up your page — Ques', 'Your set-up checklist.', ONBOARDING_PATH);
  const { user, updateUser } = useAuth();
  const checklist = useApiData((signal) => fetchChecklist(signal), []);
  const [dirtySteps, setDirtySteps] = useState<Partial<Record<OnboardingStep, boolean>>>({});
  useUnsavedGuard(Object.values(dirtySteps).some(Boolean));
  const dirtyFor = useMemo(
    () => ({
      bio: (dirty: boolean) => setDirtySteps((d) => ({ ...d, bio: dirty })),
      colors: (dirty: boolean) => setDirtySteps((d) => ({ ...d, colors: dirty })),
    }),
    [],
  );

  if (!user) return null;
  return (
    <section className="admin-page setup">
      {checklist.status === 'loading' && !checklist.data ? (
        <>
          <h1 className="admin-page__title">Set up your page</h1>
          <LoadingText>Loading your checklist…</LoadingText>
        </>
      ) : checklist.status === 'error' || !checklist.data ? (
        <>
          <h1 className="admin-page__title">Set up your page</h1>
          <ErrorBanner>We could not load your checklist.</ErrorBanner>
          <button type="button" className="button button--ghost" onClick={() => void checklist.reload()}>
            Try again
          </button>
        </>
      ) : (
        <Checklist
          data={checklist.data}
          step={{ user, updateUser, onChanged: checklist.reload }}
          dirtyFor={dirtyFor}
        />
      )}
    </section>
  );
}

function Checklist({
  data,
  step,
  dirtyFor,
}: {
  data: OnboardingChecklist;
  step: StepProps;
  dirtyFor: Record<'bio' | 'colors', (dirty: boolean) => void>;
}) {
  const navigate = useNavigate();
  const toast = useToast();
  const [hiding, setHiding] = useState(false);
  const [error, setError] = useState('');
  const doneCount = ONBOARDING_STEPS.filter((s) => data.steps[s]).length;
  const link = `${siteOrigin()}${profilePath(data.username)}`;

  const mark = async (what: 'dismissed' | 'restored') => {
    setError('');
    setHiding(true);
    try {
      await markOnboarding(what);
      // The toast outlives the page: hiding leaves it for the questions.
      toast(CHECKLIST_MARKED[what]);
      if (what === 'dismissed') void navigate('/admin');
      else await step.onChanged();
    } catch {
      setError('That did not work. Please try again.');
    }
    setHiding(false);
  };

  const body = (s: OnboardingStep) => {
    switch (s) {
      case 'photo':
        return <PhotoStep {...step} />;
      case 'bio':
        return <BioStep {...step} onDirty={dirtyFor.bio} />;
      case 'colors':
        return <ColorsStep {...step} onDirty={dirtyFor.colors} />;
      case 'payouts':
        return <PayoutsStep />;
      case 'tips':
        return <TipsStep {...step} payoutsConnected={data.steps.payouts} />;
      case 'publicAnswer':
        return <PublicAnswerStep />;
      case 'linkShared':
        return <ShareLink link={link} onShared={step.onChanged} />;
    }
  };

  return (
    <>
      <h1 className="admin-page__title">{data.done ? 'You’re live — share your link' : 'Set up your page'}</h1>
      <p className="setup__progress-text">
        {data.done ? 'Every step is done. ' : ''}
        {doneCount} of {ONBOARDING_STEPS.length} steps done
      </p>
      <div className="setup__bar" aria-hidden="true">
        <span className="setup__bar-fill" style={{ width: `${(doneCount / ONBOARDING_STEPS.length) * 100}%` }} />
      </div>
      <ol className="setup__steps">
        {ONBOARDING_STEPS.map((s, index) => {
          const done = data.steps[s];
          // The share step stays open once done: sharing again is what a live page is for.
          const open = !done || s === 'linkShared';
          return (
            <li key={s} className={`panel setup-step${done ? ' is-done' : ''}`}>
              <div className="setup-step__head">
                <span className="setup-step__mark" aria-hidden="true">
                  {done ? '✓' : index + 1}
                </span>
                <h2 className="setup-step__title">
                  {TITLES[s]}
                  <span className="visually-hidden">{done ? ' (done)' : ' (to do)'}</span>
                </h2>
                {done ? <span className="setup-step__done">Done</span> : null}
              </div>
              {open ? <div className="setup-step__body">{body(s)}</div> : null}
            </li>
          );
        })}
      </ol>
      <div className="panel setup__end">
        <h2 className="setup-step__title">{data.done ? 'Ready for questions' : 'Then you’re live'}</h2>
        <p className="setup-step__text">
          {data.done
            ? 'Your page is ready for questions. Share it wherever people already find you.'
            : `${ONBOARDING_STEPS.length - doneCount} to go. Your page works already:`}{' '}
          <Link to={profilePath(data.username)}>View my page</Link>
        </p>
      </div>
      <ErrorBanner>{error}</ErrorBanner>
      <div className="setup__footer">
        {data.dismissed ? (
          <>
            <p className="field__hint">This checklist no longer opens when you sign in.</p>
            <button type="button" className="button button--ghost button--small" disabled={hiding} onClick={() => void mark('restored')}>
              Show it when I sign in
            </button>
          </>
        ) : data.done ? null : (
          <button type="button" className="button button--ghost button--small" disabled={hiding} onClick={() => void mark('dismissed')}>
            Hide this checklist
          </button>
        )}
      </div>
    </>
  );
}

/** Copying or sharing the link counts as sharing it (marked on the server); each says so in a toast. */
function ShareLink({ link, onShared }: { link: string; onShared: () => Promise<void> }) {
  const toast = useToast();
  const [error, setError] = useState('');
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const shared = useCallback(
    async (what: string) => {
      setError('');
      toast(what);
      try {
        await markOnboarding('linkShared');
        await onShared();
      } catch {
        setError('Your link was shared, but we could not note it. Please try again.');
      }
    },
    [onShared, toast],
  );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      setError('Failed to copy link');
      return;
    }
    await shared(COPY_MESSAGES.copied);
  };
  const share = async () => {
    try {
      await navigator.share({ title: 'Ask me a question on Ques', url: link });
    } catch {
      return; // cancelled: nothing shared
    }
    await shared(CHECKLIST_MARKED.shared);
  };
  return (
    <div className="setup-step__stack">
      <label className="field__label" htmlFor="setup-link">
        Your link
      </label>
      <div className="input-group">
        <input id="setup-link" className="input" type="text" readOnly value={link} onFocus={(e) => e.target.select()} />
        <button type="button" className="button button--primary" onClick={() => void copy()}>
          Copy link
        </button>
        {canShare ? (
          <button type="button" className="button button--ghost" onClick={() => void share()}>
            Share…
          </button>
        ) : null}
      </div>
      <ErrorBanner>{error}</ErrorBanner>
    </div>
  );
}
