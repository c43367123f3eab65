import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Modal } from '../../components/Modal';
import { errorText } from '../../lib/api';
import { leaveTo } from '../../lib/browser';
import { themeVars } from '../../lib/color';
import type { PublicProfile, TipOptionsResponse } from '../../lib/api';
import { useAuth } from '../auth/auth-context';
import { createCheckoutSession, fetchTipOptions, postQuestion, type QuestionPayload } from './api';
import { TipSelector, type TipValue } from './TipSelector';
import { tipAmount, validateAsk, type AskField, type AskRecipient } from './validate';
import './ask.css';

interface AskModalProps {
  recipient: PublicProfile;
  onClose: () => void;
  /** Called after a free question was posted (spec §4 "Asking"). */
  onPosted?: () => void;
}

/** How long the "sent" state stays before the modal closes itself. */
const SENT_CLOSE_DELAY_MS = 1500;

/** Ask-question modal (spec §2 "Ask-question modal", §4 "Asking", §5 rules 1–7, §8 errors). */
export default function AskModal({ recipient, onClose, onPosted }: AskModalProps) {
  return (
    <Modal
      title={`Ask ${recipient.name} a question`}
      onClose={onClose}
      className="ask-modal"
      style={themeVars(recipient.brandColorMain, recipient.brandColorLight)}
    >
      {(requestClose) => <AskForm recipient={recipient} requestClose={requestClose} onPosted={onPosted} />}
    </Modal>
  );
}

function AskForm({
  recipient,
  requestClose,
  onPosted,
}: {
  recipient: PublicProfile;
  requestClose: () => void;
  onPosted?: (() => void) | undefined;
}) {
  const { user } = useAuth();
  const isGuest = !user;
  const ids = {
    title: useId(),
    detail: useId(),
    name: useId(),
    email: useId(),
    agree: useId(),
    error: useId(),
    tipNote: useId(),
  };
  const [title, setTitle] = useState('');
  const [detail, setDetail] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [tip, setTip] = useState<TipValue>({ preset: null, custom: '' });
  const [tipping, setTipping] = useState<TipOptionsResponse | null>(null);
  const [error, setError] = useState<{ message: string; field: AskField } | null>(null);
  const [busy, setBusy] = useState<'posting' | 'redirecting' | null>(null);
  const [sent, setSent] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const recipientId = recipient.id || recipient._id;
  useEffect(() => {
    let live = true;
    if (!recipientId) {
      setTipping({ tipOptions: [], tippingEnabled: false });
      return;
    }
    void fetchTipOptions(recipientId).then((data) => live && setTipping(data));
    return () => {
      live = false;
    };
  }, [recipientId]);

  useEffect(() => {
    if (!sent) return;
    const t = window.setTimeout(requestClose, SENT_CLOSE_DELAY_MS);
    return () => window.clearTimeout(t);
  }, [sent, requestClose]);

  const tippingEnabled = tipping?.tippingEnabled;
  const amount = tipAmount({ tippingEnabled, ...tip });

  const focusField = (field: AskField) => {
    const id =
      field === 'title' ? ids.title : field === 'name' ? ids.name : field === 'email' ? ids.email : field === 'agree' ? ids.agree : null;
    if (id) document.getElementById(id)?.focus();
    else if (field === 'tip') formRef.current?.querySelector<HTMLInputElement>('.tip-selector input')?.focus();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !tipping) return;
    const recipientData: AskRecipient = { id: recipientId };
    if ('email' in recipient) recipientData.email = recipient.email;
    const problem = validateAsk(
      { title, isGuest, agreed, name, email, tippingEnabled, preset: tip.preset, custom: tip.custom },
      recipientData,
    );
    if (problem) {
      setError(problem);
      focusField(problem.field);
      return;
    }
    setError(null);

    const askerName = user ? user.name : name.trim();
    const askerEmail = user ? user.email : email.trim();
    const payload: QuestionPayload = {
      question: title.trim(),
      detail: detail.trim(),
      tip: amount,
      isCurated: false,
      toUsername: recipient.username,
      recipientName: recipient.name,
      toUserId: recipientId,
      fromUsername: user ? user.username : 'guest',
      askedName: askerName,
      askedEmail: askerEmail,
      yourName: askerName,
      yourEmail: askerEmail,
      toUserEmail: recipient.email,
      ...(isGuest ? { agreedToTerms: agreed } : {}),
    };

    if (amount > 0) {
      setBusy('redirecting');
      try {
        const session = await createCheckoutSession(amount, user ? user.id || user._id : 'guest', payload);
        if (session?.url) {
          leaveTo(session.url);
          return; // the page is leaving; keep the busy state
        }
        setError({ message: session?.message || 'Failed to create checkout session', field: null });
      } catch (err) {
        setError({
          message: errorText(err, 'Failed to create checkout session', 'Failed to initiate payment. Please try again.'),
          field: null,
        });
      }
      setBusy(null);
      return;
    }

    setBusy('posting');
    try {
      await postQuestion(payload);
      setSent(true);
      onPosted?.();
    } catch (err) {
      setError({
        message: errorText(err, 'Failed to post question', 'Failed to post question. Please try again.'),
        field: null,
      });
    }
    setBusy(null);
  };

  if (sent) {
    return (
      <div className="ask-sent" role="status">
        <p className="ask-sent__title">Your question is on its way.</p>
        <p>{recipient.name} will be notified. Answers appear on this page once published.</p>
        <button type="button" className="button button--primary" onClick={requestClose}>
          Close
        </button>
      </div>
    );
  }

  const invalid = (field: AskField) => (error?.field === field ? true : undefined);
  const describe = (field: AskField) => (error?.field === field ? ids.error : undefined);

  return (
    <form ref={formRef} className="ask-form" noValidate onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor={ids.title} className="field__label">
          Question title <span className="field__required">(required)</span>
        </label>
        <input
          id={ids.title}
          className="input"
          type="text"
          value={title}
          maxLength={300}
          autoComplete="off"
          aria-invalid={invalid('title')}
          aria-describedby={describe('title')}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.detail} className="field__label">
          Description <span className="field__optional">(optional)</span>
        </label>
        <textarea
          id={ids.detail}
          className="input input--area"
          rows={4}
          value={detail}
          maxLength={5000}
          onChange={(e) => setDetail(e.target.value)}
        />
      </div>
      {isGuest ? (
        <div className="field-row">
          <div className="field">
            <label htmlFor={ids.name} className="field__label">
              Your Name
            </label>
            <input
              id={ids.name}
              className="input"
              type="text"
              autoComplete="name"
              value={name}
              aria-invalid={invalid('name')}
              aria-describedby={describe('name')}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.email} className="field__label">
              Email
            </label>
            <input
              id={ids.email}
              className="input"
              type="email"
              autoComplete="email"
              value={email}
              aria-invalid={invalid('email')}
              aria-describedby={describe('email')}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
        </div>
      ) : null}

      {tipping === null ? (
        <p className="ask-form__tip-loading" role="status">
          Loading tip options…
        </p>
      ) : tipping.tippingEnabled ? (
        <>
          <TipSelector
            options={tipping.tipOptions}
            value={tip}
            onChange={(next) => {
              setTip(next);
              if (error?.field === 'tip') setError(null);
            }}
            invalid={error?.field === 'tip'}
            describedBy={[describe('tip'), ids.tipNote].filter(Boolean).join(' ')}
          />
          <p id={ids.tipNote} className="field__hint">
            A tip is held on your card, never charged unless {recipient.name} answers. It is released if there is
            no answer within 5 days.
          </p>
        </>
      ) : null}

      {error ? (
        <p id={ids.error} className="banner banner--error" role="alert">
          {error.message}
        </p>
      ) : null}

      <div className="ask-form__footer">
        {isGuest ? (
          <label className="checkbox" htmlFor={ids.agree}>
            <input
              id={ids.agree}
              type="checkbox"
              checked={agreed}
              aria-invalid={invalid('agree')}
              aria-describedby={describe('agree')}
              onChange={(e) => setAgreed(e.target.checked)}
            />
            <span>
              I agree to the{' '}
              <a href="/terms-of-use" target="_blank" rel="noopener noreferrer">
                Terms of Use
              </a>{' '}
              and{' '}
              <a href="/privacy-policy" target="_blank" rel="noopener noreferrer">
                Privacy Policy
              </a>
              .
            </span>
          </label>
        ) : (
          <p className="field__hint">
            By posting you agree to the{' '}
            <a href="/terms-of-use" target="_blank" rel="noopener noreferrer">
              Terms of Use
            </a>{' '}
            and{' '}
            <a href="/privacy-policy" target="_blank" rel="noopener noreferrer">
              Privacy Policy
            </a>
            .
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy !== null || tipping === null}>
          {busy === 'redirecting' ? 'Redirecting to payment…' : busy === 'posting' ? 'Posting…' : 'Post Question'}
        </button>
      </div>
      {amount > 0 && !busy ? (
        <p className="field__hint ask-form__pay-note">You will confirm the ${amount} tip on the secure payment page.</p>
      ) : null}
    </form>
  );
}
