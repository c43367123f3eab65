import { useState } from 'react';
import { SUPPORT_CATEGORIES, type OpsSupportRequest } from '@ques/contracts/core';
import { SelectField } from '../../../components/Field';
import { useSuccessMessage } from '../../../components/Banner';
import { useApiData } from '../../../lib/use-api-data';
import { answerSupportRequest, fetchSupportRequests } from './api';
import { ConfirmDialog, DeskList, DeskPage, formatDateTime, useStatusFilter } from './parts';
import './ops-desk.css';

/**
 * Support requests (issue 18): the support service's read model, by status and category; the text and the requester;
 * "Mark answered" with a note, mailed to a signed-in requester's verified address.
 */
export default function SupportRequestsPage() {
  const [status, statusFilter] = useStatusFilter('open', [
    { value: 'open', label: 'Open' },
    { value: 'answered', label: 'Answered' },
  ]);
  const [category, setCategory] = useState('');
  const list = useApiData(
    (signal) =>
      fetchSupportRequests({ status: status || undefined, category: category || undefined }, signal),
    [status, category],
  );
  const [answering, setAnswering] = useState<OpsSupportRequest | null>(null);
  const [success, showSuccess] = useSuccessMessage();

  return (
    <DeskPage
      id="support-title"
      title="Support requests"
      success={success}
      statusFilter={statusFilter}
      filters={
        <SelectField
          label="Category"
          value={category}
          onChange={setCategory}
          options={[{ value: '', label: 'All categories' }, ...SUPPORT_CATEGORIES]}
        />
      }
    >
      <DeskList
        data={list}
        what="support requests"
        empty="No support requests here."
        label="Support requests"
      >
        {(r) => (
          <li key={r.id} className="ops-desk__item" data-testid="support-request">
            <h2 className="ops-desk__item-title">{r.title}</h2>
            <p className="ops-desk__meta">
              <span className={`ops-desk__tag${r.status === 'answered' ? ' ops-desk__tag--done' : ''}`}>
                {r.status === 'answered' ? 'Answered' : 'Open'}
              </span>{' '}
              {r.category} · {formatDateTime(r.requestedAt)} · from{' '}
              {r.requester ? `${r.requester.username} (signed in)` : 'a guest'}
            </p>
            <p className="ops-desk__text">{r.description}</p>
            {r.status === 'answered' ? (
              <p className="ops-desk__meta">
                Answered {r.answeredAt ? formatDateTime(r.answeredAt) : ''} by {r.answeredBy}:{' '}
                <span className="ops-desk__text">{r.answerNote}</span>
                {r.answerMailedAt
                  ? ' · mailed to the requester'
                  : r.canMailRequester
                    ? ' · mail queued'
                    : ' · no verified address to mail'}
              </p>
            ) : (
              <div className="ops-desk__actions">
                <button
                  type="button"
                  className="button button--small button--primary"
                  onClick={() => setAnswering(r)}
                >
                  Mark answered…
                </button>
              </div>
            )}
          </li>
        )}
      </DeskList>
      {answering ? (
        <ConfirmDialog
          title={`Answer "${answering.title}"`}
          confirmLabel="Mark answered"
          onClose={() => setAnswering(null)}
          note={{ label: 'Note to the requester', rows: 5, maxLength: 5000, missing: 'Please write a note.' }}
          onConfirm={async (key, note) => {
            await answerSupportRequest(answering.id, note, key);
            showSuccess('The request is marked answered.');
            await list.reload();
          }}
        >
          <p>
            {answering.requester
              ? answering.canMailRequester
                ? `The note is mailed to ${answering.requester.username}.`
                : `${answering.requester.username} has no verified address: the note is kept here only.`
              : 'A guest sent this request: the note is kept here only.'}
          </p>
        </ConfirmDialog>
      ) : null}
    </DeskPage>
  );
}
