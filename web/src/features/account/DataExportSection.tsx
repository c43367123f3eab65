import { useEffect, useId, useState } from 'react';
import type { DataExport } from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { errorText } from '../../lib/api';
import { useApiData } from '../../lib/use-api-data';
import { downloadExport, fetchExport, fetchLatestExport, requestExport } from './exports-api';

export const EXPORT_UI = {
  loadFailed: 'Could not load your data export.',
  requestFailed: 'Could not start your data export. Please try again.',
  downloadFailed: 'Could not download your data export. Please try again.',
  none: 'You have not asked for an export yet.',
  working: 'Preparing your export… You can leave this page: we e-mail you when it is ready.',
  failed: 'Your last export could not be built.',
  expired: 'Your last export has expired (exports can be downloaded for 24 hours).',
} as const;

/** How often the page asks while an export is being built. */
export const EXPORT_POLL_MS = 1_500;

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '');
const size = (bytes: number | null) => (bytes === null ? '' : bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`);

/**
 * Account Settings' "Your data" (issue 15): ask for a ZIP of everything that is yours (profile, questions received,
 * asked and curated, tips and earnings) as JSON and CSV; it is built in the background (the state shows here and an
 * e-mail says when it is ready) and downloaded with this session for 24 hours.
 */
export function DataExportSection() {
  const headingId = useId();
  const latest = useApiData((signal) => fetchLatestExport(signal).then((r) => r.export), []);
  const [current, setCurrent] = useState<DataExport | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const shown = current ?? latest.data ?? null;
  const working = shown?.status === 'requested' || shown?.status === 'running';

  // While it is being built, follow its state.
  useEffect(() => {
    if (!shown || !working) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      fetchExport(shown.id, controller.signal)
        .then(setCurrent)
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setError(errorText(err, EXPORT_UI.loadFailed, EXPORT_UI.loadFailed));
        });
    }, EXPORT_POLL_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [shown, working]);

  const ask = async () => {
    setBusy(true);
    setError('');
    try {
      setCurrent(await requestExport());
    } catch (err) {
      setError(errorText(err, EXPORT_UI.requestFailed, EXPORT_UI.requestFailed));
    }
    setBusy(false);
  };

  const download = async (id: string) => {
    setBusy(true);
    setError('');
    try {
      const { blob, filename } = await downloadExport(id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setError(errorText(err, EXPORT_UI.downloadFailed, EXPORT_UI.downloadFailed));
    }
    setBusy(false);
  };

  const requestButton = (label: string) => (
    <button type="button" className="button button--ghost button--small" disabled={busy} onClick={() => void ask()}>
      {busy ? 'Requesting…' : label}
    </button>
  );

  let body;
  if (latest.status === 'loading' && !current) body = <LoadingText>Loading your data export…</LoadingText>;
  else if (latest.status === 'error' && !current)
    body = (
      <>
        <ErrorBanner>{errorText(latest.error, EXPORT_UI.loadFailed, EXPORT_UI.loadFailed)}</ErrorBanner>
        <button type="button" className="button button--ghost button--small" onClick={latest.retry}>
          Try again
        </button>
      </>
    );
  else if (!shown) body = <><p>{EXPORT_UI.none}</p>{requestButton('Export my data')}</>;
  else if (working) body = <LoadingText>{EXPORT_UI.working}</LoadingText>;
  else if (shown.status === 'ready')
    body = (
      <>
        <p role="status">
          Your export from {when(shown.requestedAt)} is ready ({size(shown.sizeBytes)}). You can download it until{' '}
          {when(shown.expiresAt)}.
        </p>
        <div className="account__actions account__actions--start">
          <button type="button" className="button button--primary button--small" disabled={busy} onClick={() => void download(shown.id)}>
            Download my data (ZIP)
          </button>
          {requestButton('Export again')}
        </div>
      </>
    );
  else
    body = (
      <>
        <p role="status">{shown.status === 'failed' ? (shown.error ?? EXPORT_UI.failed) : EXPORT_UI.expired}</p>
        {requestButton('Export my data')}
      </>
    );

  return (
    <section className="account__card" aria-labelledby={headingId}>
      <h2 className="account__heading" id={headingId}>
        Your data
      </h2>
      <p>
        Download everything that is yours on Ques — your profile, the questions you received, asked and curated with their
        answers, tags and statuses, and your tips and earnings — as a ZIP of JSON and CSV files.
      </p>
      {body}
      <ErrorBanner>{error}</ErrorBanner>
    </section>
  );
}
