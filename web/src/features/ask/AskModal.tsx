import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  dollarsToCents,
  feeBreakdownText,
  GUEST_USERNAME,
  PAYMENT_MESSAGES,
  QUESTION_LIMITS,
  statusConfirmationPath,
  type PublicProfile,
  type SimilarAnswer,
  type TipOptionsResponse,
} from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { Checkbox, InputField, TermsLinks, TextAreaField } from '../../components/Field';
import { useFieldErrors } from '../../components/use-field-errors';
import { Modal } from '../../components/Modal';
import { errorText } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { leaveTo } from '../../lib/browser';
import { themeVars } from '../../lib/color';
import { useNavigate } from 'react-router-dom';
import { newStatusToken } from '../../lib/status-token';
import { useFormValues } from '../../lib/use-form-values';
import { useApiData } from '../../lib/use-api-data';
import { createCheckoutSession, fetchSimilarAnswers, fetchTipOptions, postQuestion, type QuestionPayload } from './api';
import { TipSelector, type TipValue } from './TipSelector';
import { askFieldErrors, recipientProblem, tipAmount, type AskRecipient } from './validate';
import './ask.css';

/** The public profile carries no e-mail; a caller that knows it may add it (spec §5 rule 5 then applies). */
type Recipient = PublicProfile & { email?: string };

interface AskModalProps {
  recipient: Recipient;
  onClose: () => void;
  /** Called after a free question was posted (spec §4 "Asking"). */
  onPosted?: () => void;
}

/** A guest's contact fields (the autocomplete token is the field's name). */
const GUEST_FIELDS = [
  { field: 'name', label: 'Your Name', type: 'text' },
  { field: 'email', label: 'Email', type: 'email' },
] as const;

/** Ask-question modal (spec §2 "Ask-question modal", §4 "Asking", §5 rules 1–7, §8 errors). */
export default function AskModal({ recipient, onClose, onPosted }: AskModalProps) {
  return (
    <Modal
      title={`Ask ${recipient.name} a question`}
      onClose={onClose}
      className="ask-modal"
      style={themeVars(recipient.brandColorMain, recipient.brandColorLight)}
    >
      {() => <AskForm recipient={recipient} onPosted={onPosted} />}
    </Modal>
  );
}

function AskForm({ recipient, onPosted }: { recipient: Recipient; onPosted?: (() => void) | undefined }) {
  const { user } = useAuth();
  const isGuest = !user;
  const ids = { error: useId(), tipNote: useId() };
  const [title, setTitle] = useState('');
  const [detail, setDetail] = useState('');
  // A guest's name and e-mail (a signed-in asker's come from the session).
  const { values: guest, set: setGuest } = useFormValues({ name: '', email: '' });
  const { name, email } = guest;
  const [agreed, setAgreed] = useState(false);
  const [tip, setTip] = useState<TipValue>({ preset: null, custom: '' });
  // The asker's consent (issue 14): published by default, or private.
  const [isPrivate, setIsPrivate] = useState(false);
  // The form's own failure (the recipient's data, the server); the fields' errors are `form`'s.
  const [error, setError] = useState('');
  const [busy, setBusy] = useState<'posting' | 'redirecting' | null>(null);
  const navigate = useNavigate();

  const recipientId = recipient.id || recipient._id;
  const tipOptions = useApiData<TipOptionsResponse>(
    (signal) => (recipientId ? fetchTipOptions(recipientId, signal) : Promise.resolve({ tipOptions: [], tippingEnabled: false })),
    [recipientId],
  );
  // Null while loading (fetchTipOptions falls back to the defaults itself rather than fail).
  const tipping = tipOptions.data ?? null;

  const tippingEnabled = tipping?.tippingEnabled;
  const amount = tipAmount({ tippingEnabled, ...tip });

  const form = useFieldErrors(() =>
    askFieldErrors({ title, isGuest, agreed, name, email, tippingEnabled, preset: tip.preset, custom: tip.custom }),
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !tipping) return;
    setError('');
    if (!form.attempt()) return;
    const recipientData: AskRecipient = { id: recipientId };
    if ('email' in recipient) recipientData.email = recipient.email;
    const problem = recipientProblem(recipientData);
    if (problem) {
      setError(problem);
      return;
    }

    // The question's status link, made here (issue 28): the page after posting or paying is its confirmation.
    const statusToken = newStatusToken();
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
      fromUsername: user ? user.username : GUEST_USERNAME,
      askedName: askerName,
      askedEmail: askerEmail,
      yourName: askerName,
      yourEmail: askerEmail,
      toUserEmail: recipient.email,
      ...(isGuest ? { agreedToTerms: agreed } : {}),
      ...(isPrivate ? { isPrivate: true } : {}),
      statusToken,
    };

    if (amount > 0) {
      setBusy('redirecting');
      try {
        const session = await createCheckoutSession(amount, user ? user.id || user._id : 'guest', payload);
        if (session?.url) {
          leaveTo(session.url);
          return; // the page is leaving; keep the busy state
        }
        setError(session?.message || PAYMENT_MESSAGES.checkoutFailed);
      } catch (err) {
        setError(errorText(err, PAYMENT_MESSAGES.checkoutFailed, 'Failed to initiate payment. Please try again.'));
      }
      setBusy(null);
      return;
    }

    setBusy('posting');
    try {
      await postQuestion(payload);
      onPosted?.();
      // The same confirmation page as after paying, without the money lines (issue 28).
      void navigate(statusConfirmationPath(statusToken));
      return;
    } catch (err) {
      setError(errorText(err, 'Failed to post question', 'Failed to post question. Please try again.'));
    }
    setBusy(null);
  };

  /** The error of a control `Field` does not render (the tip, the agreement), under it and linked to it. */
  const errorOf = (field: 'tip' | 'agree') => `${form.idOf(field)}-error`;

  return (
    <form className="ask-form" noValidate onSubmit={(e) => void submit(e)}>
      <InputField
        label="Question title"
        marker="required"
        {...form.field('title')}
        type="text"
        maxLength={QUESTION_LIMITS.question}
        autoComplete="off"
        value={title}
        onChange={setTitle}
      />
      <SimilarAnswers username={recipient.username} title={title} />
      <TextAreaField label="Description" marker="optional" rows={4} maxLength={QUESTION_LIMITS.detail} value={detail} onChange={setDetail} />
      {isGuest ? (
        <div className="field-row">
          {GUEST_FIELDS.map(({ field, label, type }) => (
            <InputField
              key={field}
              label={label}
              {...form.field(field)}
              type={type}
              autoComplete={field}
              value={guest[field]}
              onChange={setGuest(field)}
            />
          ))}
        </div>
      ) : null}

      {tipping === null ? (
        <p className="ask-form__tip-loading" role="status">
          Loading tip options…
        </p>
      ) : tipping.tippingEnabled ? (
        <>
          <div id={form.idOf('tip')}>
            <TipSelector
              options={tipping.tipOptions}
              value={tip}
              onChange={setTip}
              invalid={Boolean(form.errors.tip)}
              describedBy={[form.errors.tip ? errorOf('tip') : null, ids.tipNote].filter(Boolean).join(' ')}
            />
            <ErrorBanner id={errorOf('tip')}>{form.errors.tip}</ErrorBanner>
          </div>
          <p id={ids.tipNote} className="field__hint">
            A tip is held on your card, never charged unless {recipient.name} answers. It is released if there is
            no answer within 5 days.
          </p>
          {amount > 0 ? (
            <p className="field__hint ask-form__fees" data-testid="fee-breakdown">
              {feeBreakdownText(recipient.name, dollarsToCents(amount) ?? 0)}
            </p>
          ) : null}
        </>
      ) : null}

      <fieldset className="ask-form__consent">
        <legend>Who may see the answer</legend>
        <label>
          <input type="radio" name="consent" checked={!isPrivate} onChange={() => setIsPrivate(false)} /> May be
          published on {recipient.name}'s page
        </label>
        <label>
          <input type="radio" name="consent" checked={isPrivate} onChange={() => setIsPrivate(true)} /> Private — only I
          see the answer
        </label>
      </fieldset>

      <ErrorSummary count={form.count} />
      <ErrorBanner id={ids.error}>{error}</ErrorBanner>

      <div className="ask-form__footer">
        {isGuest ? (
          <div className="ask-form__agree">
            <Checkbox
              id={form.idOf('agree')}
              invalid={Boolean(form.errors.agree)}
              {...(form.errors.agree ? { describedBy: errorOf('agree') } : {})}
              checked={agreed}
              onChange={setAgreed}
            >
              I agree to <TermsLinks />.
            </Checkbox>
            <ErrorBanner id={errorOf('agree')}>{form.errors.agree}</ErrorBanner>
          </div>
        ) : (
          <p className="field__hint">
            By posting you agree to <TermsLinks />.
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

/** How long typing must pause before "Already answered?" asks the server. */
const SIMILAR_DEBOUNCE_MS = 350;

/**
 * "Already answered?" (issue 14): up to 3 of the owner's public answers matching the title, fetched when typing
 * pauses; each opens in place. Asking anyway is just going on with the form.
 */
function SimilarAnswers({ username, title }: { username: string; title: string }) {
  const [answers, setAnswers] = useState<SimilarAnswer[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    const q = title.trim();
    if (q.length < 3) {
      setAnswers([]);
      return;
    }
    const controller = new AbortController();
    const t = window.setTimeout(() => {
      fetchSimilarAnswers(username, q, controller.signal)
        .then(setAnswers)
        .catch(() => undefined); // a hint only: nothing to show when it fails
    }, SIMILAR_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(t);
      controller.abort();
    };
  }, [username, title]);
  if (answers.length === 0) return null;
  return (
    <section className="ask-similar" aria-label="Already answered?" data-testid="similar-answers">
      <p className="ask-similar__title">Already answered? {answers.length === 1 ? 'This answer' : 'These answers'} may help:</p>
      <ul>
        {answers.map((a) => (
          <li key={a.id}>
            <button type="button" className="text-link" aria-expanded={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
              {a.question}
            </button>
            {open === a.id ? <p className="ask-similar__answer">{a.answer}</p> : null}
          </li>
        ))}
      </ul>
      <p className="field__hint">Not it? Go on and ask your question.</p>
    </section>
  );
}
