import { useEffect, useState } from 'react';
import type { OpsDeadLetter, OpsJob, OpsStreamStatus } from '@ques/contracts/core';
import { DataTable, type Column } from '../../../components/DataTable';
import { ErrorSummary } from '../../../components/ErrorSummary';
import { InputField } from '../../../components/Field';
import { SuccessBanner, useSuccessMessage } from '../../../components/Banner';
import { useFieldErrors } from '../../../components/use-field-errors';
import { useApiData } from '../../../lib/use-api-data';
import {
  dropDeadLetter,
  fetchDeadLetters,
  fetchJob,
  fetchStatus,
  retryDeadLetter,
  SERVICES,
  startRebuild,
  startRepublish,
  type Service,
} from './api';
import { ConfirmDialog, DeskList, formatDateTime, Loaded } from './parts';
import './ops-desk.css';

const CONSUMER_COLUMNS: Column<OpsStreamStatus['consumers'][number]>[] = [
  { header: 'Consumer', cell: (c) => c.durable },
  { header: 'Stream', cell: (c) => c.stream },
  { header: 'Lag', cellClassName: 'ops-desk__num', cell: (c) => c.pending },
  { header: 'Awaiting ack', cellClassName: 'ops-desk__num', cell: (c) => c.ackPending },
  { header: 'Redelivered', cellClassName: 'ops-desk__num', cell: (c) => c.redelivered },
];

/** The republish position's rule (the API's `from`: an integer, 0 or more); empty stands for 0. */
export const POSITION_INVALID = 'The position must be a whole number, 0 or more.';
const positionProblem = (from: string) => (/^\d*$/.test(from.trim()) ? undefined : POSITION_INVALID);

type Pending =
  { kind: 'retry' | 'drop'; letter: OpsDeadLetter } | { kind: 'rebuild' } | { kind: 'republish' } | null;

/**
 * Event streams (issue 18): per service, its streams' sequences, durable consumers and their lag, the outbox and the
 * scheduler, dead letters (personal fields masked) with Retry / Drop, and Rebuild / Republish with live progress.
 * Every action is the admin CLI's kit function behind the service's operator guard (ADR 0027, 0032).
 */
export default function StreamsPage() {
  const [service, setService] = useState<Service>('questions');
  const status = useApiData((signal) => fetchStatus(service, signal), [service]);
  const letters = useApiData((signal) => fetchDeadLetters(service, signal), [service]);
  const [pending, setPending] = useState<Pending>(null);
  const [job, setJob] = useState<OpsJob | null>(null);
  const [from, setFrom] = useState('0');
  // Checked before the confirmation opens, under the field (issue 28), rather than refused inside the dialog.
  const republish = useFieldErrors(() => ({ from: positionProblem(from) }));
  const [success, showSuccess] = useSuccessMessage();

  // Live progress: the job is polled until it ends, then the figures are read again.
  useEffect(() => {
    if (!job || job.status !== 'running') return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      fetchJob(service, job.id, controller.signal)
        .then((next) => {
          setJob(next);
          if (next.status !== 'running') void status.reload();
        })
        .catch(() => undefined);
    }, 400);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [job, service]);

  const refresh = () => {
    void status.reload();
    void letters.reload();
  };

  return (
    <section className="ops-desk" aria-labelledby="streams-title">
      <h1 id="streams-title" className="ops-desk__title">
        Event streams
      </h1>
      <div className="ops-desk__tabs" role="group" aria-label="Service">
        {SERVICES.map((s) => (
          <button
            key={s}
            type="button"
            className="button button--small"
            aria-pressed={s === service}
            onClick={() => {
              setService(s);
              setJob(null);
            }}
          >
            {s}
          </button>
        ))}
        <button type="button" className="button button--small button--ghost" onClick={refresh}>
          Refresh
        </button>
      </div>
      <SuccessBanner message={success} />

      <div className="ops-desk__card">
        <h2>Pipeline of {service}</h2>
        <Loaded data={status} what="the pipeline" isEmpty={() => false} empty={null}>
          {(s) => (
            <>
              <table className="ops-desk__table">
                <caption className="visually-hidden">Streams, outbox and scheduler of {service}</caption>
                <tbody>
                  {Object.entries(s.streams).map(([stream, seq]) => (
                    <tr key={stream}>
                      <th scope="row">Stream {stream.toUpperCase()} sequence</th>
                      <td className="ops-desk__num">{seq ?? 'not known on this bus'}</td>
                    </tr>
                  ))}
                  <tr>
                    <th scope="row">Event store position</th>
                    <td className="ops-desk__num">{s.lastPosition}</td>
                  </tr>
                  <tr>
                    <th scope="row">Outbox backlog</th>
                    <td className="ops-desk__num">
                      {s.outbox.backlog} (oldest {Math.round(s.outbox.oldestAgeSeconds)} s)
                    </td>
                  </tr>
                  <tr>
                    <th scope="row">Scheduler backlog</th>
                    <td className="ops-desk__num">
                      {s.scheduler.due} due (late {Math.round(s.scheduler.latenessSeconds)} s)
                    </td>
                  </tr>
                  <tr>
                    <th scope="row">Last rebuild</th>
                    <td>
                      {s.lastRebuild
                        ? `${formatDateTime(s.lastRebuild.at)} by ${s.lastRebuild.operator}`
                        : 'never'}
                    </td>
                  </tr>
                </tbody>
              </table>
              <h3 className="ops-desk__subtitle">Durable consumers</h3>
              {s.consumers.length === 0 ? (
                <p className="ops-desk__empty">
                  No consumer figures on this bus (the in-process bus keeps no lag).
                </p>
              ) : (
                <DataTable
                  className="ops-desk__table"
                  caption={<>Durable consumers of {service}</>}
                  columns={CONSUMER_COLUMNS}
                  rows={s.consumers}
                  rowKey={(c) => c.durable}
                />
              )}
            </>
          )}
        </Loaded>
      </div>

      <DeskList
        data={letters}
        heading="Dead letters"
        what="dead letters"
        empty={`No dead letters in ${service}.`}
        label={`Dead letters of ${service}`}
      >
        {(l) => (
          <li key={l.id} className="ops-desk__item" data-testid="dead-letter">
            <p className="ops-desk__text">
              <strong>#{l.id}</strong> {l.subject} → {l.consumer}
            </p>
            <p className="ops-desk__meta">
              {l.attempts} attempts · parked {formatDateTime(l.createdAt)} · error: {l.error}
            </p>
            <details>
              <summary>Payload (personal fields masked)</summary>
              <pre className="ops-desk__payload" tabIndex={0} aria-label={`Payload of dead letter #${l.id}`}>
                {JSON.stringify(l.payload, null, 2)}
              </pre>
            </details>
            <div className="ops-desk__actions">
              <button
                type="button"
                className="button button--small button--primary"
                onClick={() => setPending({ kind: 'retry', letter: l })}
              >
                Retry #{l.id}
              </button>
              <button
                type="button"
                className="button button--small"
                onClick={() => setPending({ kind: 'drop', letter: l })}
              >
                Drop #{l.id}
              </button>
            </div>
          </li>
        )}
      </DeskList>

      <div className="ops-desk__card">
        <h2>Replays</h2>
        <div className="ops-desk__actions">
          <button
            type="button"
            className="button button--small"
            onClick={() => setPending({ kind: 'rebuild' })}
          >
            Rebuild projections
          </button>
        </div>
        <form
          className="ops-desk__filters"
          aria-label="Republish"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (republish.attempt()) setPending({ kind: 'republish' });
          }}
        >
          <InputField
            label="Republish from position"
            {...republish.field('from')}
            // Text, not number: a number input hands over '' for what it cannot read, and that would pass as 0.
            type="text"
            inputMode="numeric"
            value={from}
            onChange={setFrom}
          />
          <button type="submit" className="button button--small">
            Republish from {from.trim() || '0'}
          </button>
        </form>
        <ErrorSummary count={republish.count} />
        {job ? <JobProgress job={job} /> : null}
      </div>

      {pending?.kind === 'retry' || pending?.kind === 'drop' ? (
        <ConfirmDialog
          title={
            pending.kind === 'retry'
              ? `Retry dead letter #${pending.letter.id}?`
              : `Drop dead letter #${pending.letter.id}?`
          }
          confirmLabel={pending.kind === 'retry' ? 'Retry' : 'Drop'}
          onClose={() => setPending(null)}
          onConfirm={async (key) => {
            const id = pending.letter.id;
            if (pending.kind === 'retry') {
              const outcome = await retryDeadLetter(service, id, key);
              if (outcome.outcome === 'failed') throw new Error(outcome.error ?? 'The handler failed again.');
              showSuccess(`Dead letter #${id}: ${outcome.outcome}.`);
            } else {
              const { dropped } = await dropDeadLetter(service, id, key);
              showSuccess(dropped ? `Dead letter #${id} dropped.` : `Dead letter #${id} was already gone.`);
            }
            refresh();
          }}
        >
          {pending.kind === 'retry' ? (
            <p>
              The event runs through <strong>{pending.letter.consumer}</strong> again, once. If it fails again
              it stays parked.
            </p>
          ) : (
            <p>
              The event is given up for {pending.letter.consumer}; its payload goes to the operator log. This
              cannot be undone.
            </p>
          )}
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'rebuild' ? (
        <ConfirmDialog
          title={`Rebuild ${service}'s projections?`}
          confirmLabel="Rebuild"
          onClose={() => setPending(null)}
          onConfirm={async (key) => setJob(await startRebuild(service, key))}
        >
          <p>Every read model of {service} is rebuilt from its events. Reads and writes go on meanwhile.</p>
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'republish' ? (
        <ConfirmDialog
          title={`Republish ${service}'s events?`}
          confirmLabel="Republish"
          onClose={() => setPending(null)}
          onConfirm={async (key) => setJob(await startRepublish(service, { from: Number(from.trim() || '0') }, key))}
        >
          <p>
            Integration events after position {from.trim() || '0'} are published again. Consumers apply each event
            once, so those already applied are skipped.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function JobProgress({ job }: { job: OpsJob }) {
  const { done, total, phase } = job.progress;
  const label = `${job.command}: ${job.status}${phase ? ` (${phase})` : ''}`;
  return (
    <div className="ops-desk__progress" data-testid="job-progress">
      <p role="status" aria-live="polite" className="ops-desk__meta">
        {label} — {done}
        {total !== null ? ` of ${total}` : ''} events{job.error ? ` — ${job.error}` : ''}
      </p>
      <progress
        aria-label={`${job.command} progress`}
        value={job.status === 'running' ? done : (total ?? done)}
        max={total ?? Math.max(done, 1)}
      />
    </div>
  );
}
