import { useState, type FormEvent } from 'react';
import { HANDLE_HOLD_DAYS, normalizeHandle, profilePath } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useToast } from '../../components/Toast';
import { errorText } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { siteOrigin, usePageHead } from '../../lib/head';
import { HandleField } from '../../components/HandleField';
import { useHandleCheck } from '../../components/use-handle-check';
import { changeHandle } from './api';

/**
 * "Your public link" (issue 28): the current link to copy, and a new handle with the same live check as sign-up.
 * Renaming asks first, naming both links: the old one keeps working (a redirect) for 90 days, and only its owner may
 * take it back meanwhile.
 */
export function PublicLinkSection() {
  usePageHead('Public link — Account Settings — Ques', 'Your Ques public link.', '/admin/account-settings/link');
  const { user, signIn } = useAuth();
  const [next, setNext] = useState('');
  const check = useHandleCheck(next, user?.username);
  const [attempted, setAttempted] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<{ value: string; message: string } | null>(null);
  const [copyError, setCopyError] = useState('');
  // The copy and the rename say so in a toast (issue 28); their failures stay next to their controls.
  const toast = useToast();
  if (!user) return null;

  const current = `${siteOrigin()}${profilePath(user.username)}`;
  const handle = normalizeHandle(next);
  const fieldError =
    serverError?.value === next ? serverError.message : attempted && !handle ? 'Please choose your new link.' : attempted && handle === user.username ? 'This is already your link.' : '';

  const copy = async () => {
    setCopyError('');
    try {
      await navigator.clipboard.writeText(current);
      toast('Profile link copied to clipboard!');
    } catch {
      setCopyError('Failed to copy link');
    }
  };

  const review = (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    setServerError(null);
    if (!handle || handle === user.username || check.state === 'refused') return;
    setConfirming(true);
  };

  const rename = async (close: () => void) => {
    setSaving(true);
    try {
      const answer = await changeHandle(handle);
      // The new token names the new handle (the other services read it from the token); the refresh token stays.
      signIn(answer.user, answer.accessToken, undefined);
      setNext('');
      setAttempted(false);
      toast(`Your link is now ${siteOrigin()}${profilePath(answer.user.username)}`);
    } catch (err) {
      setServerError({ value: next, message: errorText(err, 'Failed to change your link. Please try again.', 'Failed to change your link. Please try again.') });
    }
    setSaving(false);
    close();
  };

  return (
    <section className="panel account__card" aria-labelledby="public-link-heading">
      <h2 className="account__heading" id="public-link-heading">
        Your public link
      </h2>
      <Field label="Current link">
        {(field) => (
          <>
            <div className="input-group">
              <input {...field} className="input" type="text" readOnly value={current} onFocus={(e) => e.target.select()} />
              <button type="button" className="button button--ghost" onClick={() => void copy()}>
                Copy Link
              </button>
            </div>
            <ErrorBanner>{copyError}</ErrorBanner>
          </>
        )}
      </Field>
      <form className="account__rename" noValidate onSubmit={review}>
        <HandleField
          label="New link"
          value={next}
          onChange={setNext}
          check={check}
          error={fieldError}
          hint={`Your old link keeps working for ${HANDLE_HOLD_DAYS} days.`}
        />
        <div className="account__actions account__actions--start">
          <button type="submit" className="button button--primary" disabled={saving}>
            Change link
          </button>
        </div>
      </form>
      {confirming ? (
        <Modal title="Change your public link?" onClose={() => setConfirming(false)} initialFocusSelector=".account__confirm-cancel">
          {(close) => (
            <div className="account__confirm">
              <p>
                <strong>{profilePath(user.username)}</strong> will redirect to <strong>{profilePath(handle)}</strong> for{' '}
                {HANDLE_HOLD_DAYS} days. Update the link wherever you shared it.
              </p>
              <div className="account__actions">
                <button type="button" className="button button--primary" disabled={saving} onClick={() => void rename(close)}>
                  {saving ? 'Changing…' : `Change to /ask/${handle}`}
                </button>
                <button type="button" className="button button--ghost account__confirm-cancel" onClick={close}>
                  Cancel
                </button>
              </div>
            </div>
          )}
        </Modal>
      ) : null}
    </section>
  );
}
