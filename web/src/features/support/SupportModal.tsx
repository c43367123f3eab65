import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  DEFAULT_SUPPORT_CATEGORY,
  SUPPORT_CATEGORIES,
  SUPPORT_LIMITS,
  SUPPORT_REQUIRED_FIELDS,
  type SupportCategory,
} from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { useToast } from '../../components/Toast';
import { useFieldErrors } from '../../components/use-field-errors';
import { InputField, SelectField, TextAreaField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { fetchCaptchaChallenge, sendSupportRequest } from './api';
import { encodeCaptchaToken, solveChallenge } from './captcha';
import './support.css';

export const SUPPORT_MESSAGES = {
  required: SUPPORT_REQUIRED_FIELDS,
  titleRequired: 'Title is required',
  descriptionRequired: 'Description is required',
  sent: 'Your support request has been sent.',
  failed: 'There was an error sending your request. Please try again later.',
  network: 'Error sending support request.',
  captchaFailed: 'The captcha could not be completed. Please press Send to try again.',
} as const;

type CaptchaState = 'hidden' | 'solving' | 'solved' | 'failed';

/**
 * Support form (spec §2 "Support modal", §5, §8): category, title, description, Send. The proof-of-work captcha
 * appears on Send when it is not solved yet, solves itself, and sending resumes once it is.
 */
export default function SupportModal({ onClose }: { onClose: () => void }) {
  const { user } = useAuth();
  const errorId = useId();
  const [category, setCategory] = useState<SupportCategory>(DEFAULT_SUPPORT_CATEGORY);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const form = useFieldErrors(() => ({
    title: title.trim() ? undefined : SUPPORT_MESSAGES.titleRequired,
    description: description.trim() ? undefined : SUPPORT_MESSAGES.descriptionRequired,
  }));
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaState>('hidden');
  const toast = useToast();
  // A solved token is good for one request; kept until it is spent.
  const token = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  /** The solved token, solving a fresh challenge first when there is none. Null when the captcha failed. */
  const ensureCaptcha = async (): Promise<string | null> => {
    if (token.current) return token.current;
    setCaptcha('solving');
    const controller = new AbortController();
    abort.current = controller;
    try {
      const challenge = await fetchCaptchaChallenge(controller.signal);
      const solution = await solveChallenge(challenge, { signal: controller.signal });
      if (controller.signal.aborted) return null;
      if (!solution) throw new Error('captcha not solved in time');
      token.current = encodeCaptchaToken(challenge, solution);
      setCaptcha('solved');
      return token.current;
    } catch (err) {
      if (controller.signal.aborted) return null;
      console.warn('Captcha failed', err);
      setCaptcha('failed');
      return null;
    }
  };

  const submit = async (e: FormEvent, close: () => void) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!form.attempt()) return;
    setBusy(true);
    const captchaToken = await ensureCaptcha();
    if (!captchaToken) {
      if (!abort.current?.signal.aborted) {
        setError(SUPPORT_MESSAGES.captchaFailed);
        setBusy(false);
      }
      return;
    }
    try {
      const result = await sendSupportRequest({
        category,
        title: title.trim(),
        description: description.trim(),
        captchaToken,
        userId: user ? user.id || user._id : undefined,
      });
      if (result?.success === false) throw new ApiError(200, undefined, result);
      // Issue 28: done — the modal closes and a toast (outliving it) says the request went.
      toast(SUPPORT_MESSAGES.sent);
      close();
    } catch (err) {
      setError(err instanceof ApiError ? SUPPORT_MESSAGES.failed : SUPPORT_MESSAGES.network);
    } finally {
      // Spent (or possibly spent) either way: the next request solves a fresh challenge.
      token.current = null;
      setCaptcha('hidden');
      setBusy(false);
    }
  };

  return (
    <Modal title="Support" onClose={onClose} className="support-modal">
      {(requestClose) => (
          <form className="support-form" noValidate onSubmit={(e) => void submit(e, requestClose)}>
            <p className="support-form__intro">Tell us what happened and we will get back to you by e-mail.</p>
            <SelectField<SupportCategory> label="Category" value={category} onChange={setCategory} options={SUPPORT_CATEGORIES} />
            <InputField
              {...form.field('title')}
              label="Title"
              marker="required"
              type="text"
              maxLength={SUPPORT_LIMITS.title}
              value={title}
              onChange={setTitle}
            />
            <TextAreaField
              {...form.field('description')}
              label="Description"
              marker="required"
              rows={5}
              maxLength={SUPPORT_LIMITS.description}
              value={description}
              onChange={setDescription}
            />

            {captcha === 'hidden' ? null : <CaptchaStatus state={captcha} />}
            <ErrorSummary count={form.count} />
            <ErrorBanner id={errorId}>{error}</ErrorBanner>

            <div className="support-form__footer">
              <button type="submit" className="button button--primary" disabled={busy}>
                {captcha === 'solving' ? 'Verifying…' : busy ? 'Sending…' : 'Send'}
              </button>
            </div>
          </form>
      )}
    </Modal>
  );
}

function CaptchaStatus({ state }: { state: Exclude<CaptchaState, 'hidden'> }) {
  const text =
    state === 'solving' ? 'Verifying you are human…' : state === 'solved' ? 'Verified — you are human' : 'Verification failed';
  return (
    <div className={`captcha captcha--${state}`} role="status" aria-live="polite" data-testid="captcha">
      <span className="captcha__box" aria-hidden="true">
        {state === 'solving' ? <span className="captcha__spinner" /> : state === 'solved' ? '✓' : '!'}
      </span>
      <span className="captcha__text">
        <strong>{text}</strong>
        <small>A short proof-of-work check in your browser. No tracking.</small>
      </span>
    </div>
  );
}
