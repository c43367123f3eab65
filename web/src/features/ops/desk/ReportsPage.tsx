import { useState } from 'react';
import { profilePath, type OpsAbuseReport } from '@ques/contracts/core';
import { useSuccessMessage } from '../../../components/Banner';
import { useApiData } from '../../../lib/use-api-data';
import { fetchReports, hideAnswer, resolveReport } from './api';
import { ConfirmDialog, DeskList, DeskPage, formatDateTime, useStatusFilter } from './parts';
import './ops-desk.css';

type Pending = { kind: 'hide' | 'dismiss'; report: OpsAbuseReport } | null;

/**
 * Abuse reports (issue 18): what visitors reported; hide a reported answer from public view with a reason its owner
 * sees, or dismiss the report.
 */
export default function ReportsPage() {
  const [status, statusFilter] = useStatusFilter('open', [
    { value: 'open', label: 'Open' },
    { value: 'hidden', label: 'Answer hidden' },
    { value: 'dismissed', label: 'Dismissed' },
  ]);
  const list = useApiData((signal) => fetchReports({ status: status || undefined }, signal), [status]);
  const [pending, setPending] = useState<Pending>(null);
  const [success, showSuccess] = useSuccessMessage();

  return (
    <DeskPage id="reports-title" title="Abuse reports" success={success} statusFilter={statusFilter}>
      <DeskList data={list} what="reports" empty="No reports here." label="Abuse reports">
        {(r) => (
          <li key={r.id} className="ops-desk__item" data-testid="abuse-report">
            <h2 className="ops-desk__item-title">
              {r.target.kind === 'answer' ? 'Answer' : 'Profile'}: {r.reason}
            </h2>
            <p className="ops-desk__meta">
              <span className={`ops-desk__tag${r.status === 'open' ? '' : ' ops-desk__tag--done'}`}>
                {r.status}
              </span>{' '}
              {formatDateTime(r.reportedAt)} · by {r.reporter ? r.reporter.username : 'a guest'} ·{' '}
              {r.target.kind === 'answer' ? (
                r.target.username ? (
                  <a
                    className="text-link text-link--small"
                    href={`${profilePath(r.target.username)}/question/${r.target.questionId}`}
                    target="_blank"
                    rel="noreferrer"
                  >
                    {r.target.username}'s answer
                  </a>
                ) : (
                  <span>answer {r.target.questionId}</span>
                )
              ) : (
                <a
                  className="text-link text-link--small"
                  href={profilePath(r.target.username)}
                  target="_blank"
                  rel="noreferrer"
                >
                  {r.target.username}
                </a>
              )}
            </p>
            {r.note ? <p className="ops-desk__text">{r.note}</p> : null}
            {r.resolutionNote ? (
              <p className="ops-desk__meta">
                {r.resolvedBy}: {r.resolutionNote}
              </p>
            ) : null}
            {r.status === 'open' ? (
              <div className="ops-desk__actions">
                {r.target.kind === 'answer' ? (
                  <button
                    type="button"
                    className="button button--small button--primary"
                    onClick={() => setPending({ kind: 'hide', report: r })}
                  >
                    Hide answer…
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setPending({ kind: 'dismiss', report: r })}
                >
                  Dismiss…
                </button>
              </div>
            ) : null}
          </li>
        )}
      </DeskList>
      {pending?.kind === 'hide' && pending.report.target.kind === 'answer' ? (
        <ConfirmDialog
          title="Hide this answer from public view?"
          confirmLabel="Hide answer"
          onClose={() => setPending(null)}
          note={{
            label: 'Reason (the owner sees it)',
            rows: 3,
            maxLength: 500,
            missing: 'Please give a reason.',
          }}
          onConfirm={async (key, reason) => {
            const target = pending.report.target as { kind: 'answer'; questionId: string };
            await hideAnswer(target.questionId, reason, pending.report.id, key);
            await resolveReport(pending.report.id, 'hidden', reason, `${key}:resolve`);
            showSuccess('The answer is hidden; its owner sees why.');
            await list.reload();
          }}
        >
          <p>
            It leaves the public page, its answer page and the sitemap. The owner keeps it in their inbox with
            your reason.
          </p>
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'dismiss' ? (
        <ConfirmDialog
          title="Dismiss this report?"
          confirmLabel="Dismiss"
          onClose={() => setPending(null)}
          onConfirm={async (key) => {
            await resolveReport(pending.report.id, 'dismissed', undefined, key);
            showSuccess('The report is dismissed.');
            await list.reload();
          }}
        >
          <p>Nothing changes on the reported {pending.report.target.kind}.</p>
        </ConfirmDialog>
      ) : null}
    </DeskPage>
  );
}
