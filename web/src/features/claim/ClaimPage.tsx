import { useId, useRef, useState, type FormEvent } from 'react';
import {
  CLAIM_LIMITS,
  CLAIM_MESSAGES as C,
  CLAIM_METHOD_LABELS,
  CLAIM_METHODS,
  profilePath,
  type ClaimMethod,
  type ProfileClaim,
  type PublicProfile,
} from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { InputField, TextAreaField } from '../../components/Field';
import { PageLoading, PageProblem } from '../../components/PageState';
import { errorText, newIdempotencyKey } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { usePageHead } from '../../lib/head';
import { Link, useParams } from 'react-router-dom';
import { useApiData } from '../../lib/use-api-data';
import { fetchMyClaims, fetchPublicProfile, submitClaim } from './api';
import './claim.css';

/**
 * "Is this you? Claim this profile" (issue 18, ADR 0034), from an archive profile's page. A guest is sent to sign up
 * or log in and comes back here (`?next=`); a signed-in person says how we can verify them, then sees what became of
 * the claim — waiting, approved, or rejected with the operator's reason (and may try again).
 */
export default function ClaimPage() {
  const { username = '' } = useParams();
  const { user, authLoading } = useAuth();
  usePageHead(
    'Claim this profile — Ques',
    'Claim a non-affiliated archive profile as its owner.',
    `/ask/${username}/claim`,
  );
  const profile = useApiData((signal) => fetchPublicProfile(username, signal), [username]);
  const signedIn = Boolean(user);
  const mine = useApiData(
    (signal) => (signedIn ? fetchMyClaims(signal) : Promise.resolve([] as ProfileClaim[])),
    [signedIn],
  );

  if (profile.status === 'loading' || authLoading) return <PageLoading />;
  if (profile.status === 'error' || !profile.data)
    return (
      <PageProblem title="Profile not found">
        {errorText(profile.error, 'This profile does not exist.', 'Could not reach Ques. Please try again.')}
      </PageProblem>
    );
  const p = profile.data;
  const back = profilePath(p.username);
  const claims = (mine.data ?? []).filter((c) => c.profile.id === p.id);
  const latest = claims[0];

  return (
    <section className="page page--narrow claim" aria-labelledby="claim-title">
      <h1 id="claim-title" className="page__title">
        Is this you? Claim {p.name}’s page
      </h1>
      <p>
        <Link to={back} className="text-link">
          Back to {p.name}’s page
        </Link>
      </p>
      {!user ? (
        <Guest profile={p} />
      ) : mine.status === 'loading' ? (
        <LoadingText>Loading your claims…</LoadingText>
      ) : latest?.status === 'approved' ? (
        <div className="panel claim__outcome" role="status">
          <h2>Your claim was approved</h2>
          <p>
            This is your page now.{' '}
            <Link to={back} className="text-link">
              Open it
            </Link>{' '}
            or{' '}
            <Link to="/admin" className="text-link">
              answer your questions
            </Link>
            .
          </p>
        </div>
      ) : latest?.status === 'pending' ? (
        <div className="panel claim__outcome" role="status">
          <h2>Your claim is waiting for review</h2>
          <p>
            We will e-mail you when it has been reviewed
            {user.emailVerified ? '' : ' (once your e-mail address is verified)'}.
          </p>
        </div>
      ) : !p.archiveProfile ? (
        <p className="panel">This page is not a non-affiliated archive profile, so it cannot be claimed.</p>
      ) : (
        <>
          {latest?.status === 'rejected' ? (
            <div className="panel claim__outcome claim__outcome--rejected">
              <h2>Your claim was not approved</h2>
              <p>
                <strong>Why:</strong> {latest.reason}
              </p>
              <p>You can send a new claim with more to go on.</p>
            </div>
          ) : null}
          <ClaimForm profile={p} username={user.username} onSent={() => void mine.reload()} />
        </>
      )}
    </section>
  );
}

function Guest({ profile }: { profile: PublicProfile }) {
  const next = encodeURIComponent(`${profilePath(profile.username)}/claim`);
  return (
    <div className="panel">
      <p>
        If you are {profile.name}, you can make this page yours: sign up (or log in), tell us how we can
        verify you, and once a Ques operator approves your claim, you sign in to this page, its badge goes and
        people can ask you questions. The answers curated here stay, with their sources.
      </p>
      <div className="claim__actions">
        <Link to={`/signup?next=${next}`} className="button button--primary">
          Sign up to claim
        </Link>
        <Link to={`/login?next=${next}`} className="button">
          Log in to claim
        </Link>
      </div>
    </div>
  );
}

const EVIDENCE_LABEL: Record<Exclude<ClaimMethod, 'note'>, string> = {
  email: 'Your e-mail address at your domain',
  link: 'Link from your official site',
};

function ClaimForm({
  profile,
  username,
  onSent,
}: {
  profile: PublicProfile;
  username: string;
  onSent: () => void;
}) {
  const key = useRef(newIdempotencyKey());
  const errorId = useId();
  const [method, setMethod] = useState<ClaimMethod>('email');
  const [evidence, setEvidence] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const missing =
      method === 'note'
        ? note.trim()
          ? ''
          : C.noteRequired
        : evidence.trim()
          ? ''
          : method === 'email'
            ? C.emailRequired
            : C.linkRequired;
    if (missing) {
      setError(missing);
      return;
    }
    setBusy(true);
    setError('');
    try {
      await submitClaim(
        {
          username: profile.username,
          method,
          evidence: method === 'note' ? '' : evidence.trim(),
          note: note.trim(),
        },
        key.current,
      );
      onSent();
    } catch (err) {
      setError(errorText(err, 'Your claim could not be sent.', 'Could not reach Ques. Please try again.'));
      key.current = newIdempotencyKey();
      setBusy(false);
    }
  };

  return (
    <form
      className="form panel"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-describedby={error ? errorId : undefined}
    >
      <fieldset className="claim__methods">
        <legend>How can we verify you?</legend>
        {CLAIM_METHODS.map((m) => (
          <label key={m}>
            <input
              type="radio"
              name="method"
              value={m}
              checked={method === m}
              onChange={() => setMethod(m)}
            />{' '}
            {CLAIM_METHOD_LABELS[m]}
          </label>
        ))}
      </fieldset>
      {method !== 'note' ? (
        <InputField
          label={EVIDENCE_LABEL[method]}
          marker="required"
          type={method === 'email' ? 'email' : 'url'}
          autoComplete={method === 'email' ? 'email' : 'url'}
          maxLength={CLAIM_LIMITS.evidence}
          hint={
            method === 'email'
              ? 'We may write to it to check that it reaches you.'
              : 'A page of your site that mentions your Ques page, or your official profile.'
          }
          value={evidence}
          onChange={setEvidence}
        />
      ) : null}
      <TextAreaField
        label="Note for the reviewers"
        marker={method === 'note' ? 'required' : 'optional'}
        rows={4}
        maxLength={CLAIM_LIMITS.note}
        value={note}
        onChange={setNote}
      />
      <p className="claim__warning">
        When your claim is approved you sign in to {profile.name}’s page with this account’s e-mail address
        and password, and this account (@{username}) is closed.
      </p>
      <ErrorBanner id={errorId}>{error}</ErrorBanner>
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Sending…' : 'Send claim'}
      </button>
    </form>
  );
}
