import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { REPORT_MESSAGES, REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason, type ReportTarget } from '@ques/contracts/core';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { SelectField, TextAreaField } from '../../components/Field';
import { useFieldErrors } from '../../components/use-field-errors';
import { Modal } from '../../components/Modal';
import { ApiError } from '../../lib/api';
import { useAuth } from '../../lib/auth/auth-context';
import { fetchCaptchaChallenge, sendReport } from './api';
import { encodeCaptchaToken, solveChallenge } from './captcha';
import './support.css';

/**
 * Report an answer or a profile (issue 18): a reason, an optional note; guests pass the same proof-of-work captcha as
 * the support form. The report lands in the operators' console.
 */
export default function ReportModal({ target, onClose }: { target: ReportTarget; onClose: () => void }) {
  const { user } = useAuth();
  const errorId = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const form = useFieldErrors(() => ({ reason: reason ? undefined : 'Please choose a reason.' }));
  const [busy, setBusy] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [success, showSuccess] = useSuccessMessage();
  const [sent, setSent] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const captcha = async (): Promise<string | undefined | null> => {
    if (user) return undefined;
    setVerifying(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const challenge = await fetchCaptchaChallenge(controller.signal);
      const solution = await solveChallenge(challenge, { signal: controller.signal });
      if (!solution) return null;
      return encodeCaptchaToken(challenge, solution);
    } catch {
      return null;
    } finally {
      setVerifying(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setError('');
    if (!form.attempt() || !reason) return;
    setBusy(true);
    try {
      const captchaToken = await captcha();
      if (captchaToken === null) {
        setError('The captcha could not be completed. Please press Send report to try again.');
        return;
      }
      await sendReport({ target, reason, note: note.trim() || undefined, captchaToken });
      setSent(true);
      showSuccess(REPORT_MESSAGES.sent);
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'The report could not be sent. Please try again later.');
    } finally {
      setBusy(false);
    }
  };

  const what = target.kind === 'answer' ? 'this answer' : 'this profile';
  return (
    <Modal title={`Report ${what}`} onClose={onClose} className="support-modal">
      <form className="support-form" noValidate onSubmit={(e) => void submit(e)}>
        <p className="support-form__intro">Tell us what is wrong with {what}. Our team reviews every report.</p>
        <SelectField<ReportReason>
          label="Reason"
          marker="required"
          {...form.field('reason')}
          value={reason}
          onChange={setReason}
          options={[{ value: '', label: 'Choose a reason…' }, ...REPORT_REASONS]}
        />
        <TextAreaField label="Note (optional)" rows={4} maxLength={REPORT_NOTE_MAX} value={note} onChange={setNote} />
        {verifying ? (
          <p role="status" className="captcha captcha--solving">
            Verifying you are human…
          </p>
        ) : null}
        <ErrorSummary count={form.count} />
        <ErrorBanner id={errorId}>{error}</ErrorBanner>
        <SuccessBanner message={success} />
        <div className="support-form__footer">
          <button type="submit" className="button button--primary" disabled={busy || sent}>
            {verifying ? 'Verifying…' : busy ? 'Sending…' : 'Send report'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
