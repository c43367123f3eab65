import { useState } from 'react';
import {
  CLAIM_LIMITS,
  CLAIM_MESSAGES,
  CLAIM_METHOD_LABELS,
  profilePath,
  type ClaimStatus,
  type OpsProfileClaim,
} from '@ques/contracts/core';
import { useSuccessMessage } from '../../../components/Banner';
import { usePageHead } from '../../../lib/head';
import { useApiData } from '../../../lib/use-api-data';
import { ConfirmDialog, DeskList, DeskPage, formatDateTime, useStatusFilter } from '../desk/parts';
import { approveClaim, fetchClaims, rejectClaim } from './api';
import '../desk/ops-desk.css';
import './claims.css';

type Pending = { kind: 'approve' | 'reject'; claim: OpsProfileClaim } | null;

const STATUS_LABELS: Record<ClaimStatus, string> = {
  pending: 'Waiting for review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/**
 * Profile claims (issue 18, ADR 0034): people who say they are the person behind an archive profile. Two operators'
 * approvals (ADR 0054) make the archive their ordinary profile (their sign-in, their own new account closed);
 * rejecting tells them why. A refused approval (one's own claim, a second press) shows the server's words.
 */
export default function ClaimsPage() {
  usePageHead('Profile claims — Ques operators', 'Claims of non-affiliated archive profiles.', '/ops/claims');
  const [status, statusFilter] = useStatusFilter<ClaimStatus>('pending', [
    { value: 'pending', label: 'Waiting for review' },
    { value: 'approved', label: 'Approved' },
    { value: 'rejected', label: 'Rejected' },
  ]);
  const list = useApiData((signal) => fetchClaims(status, signal), [status]);
  const [pending, setPending] = useState<Pending>(null);
  const [success, showSuccess] = useSuccessMessage();

  return (
    <DeskPage id="claims-title" title="Profile claims" success={success} statusFilter={statusFilter}>
      <DeskList data={list} what="claims" empty="No claims here." label="Profile claims">
        {(c) => (
          <li key={c.id} className="ops-desk__item" data-testid="profile-claim">
            <h2 className="ops-desk__item-title">
              Claim of {c.profile.name}{' '}
              <a
                className="text-link text-link--small"
                href={profilePath(c.profile.username)}
                target="_blank"
                rel="noreferrer"
              >
                @{c.profile.username}
              </a>
            </h2>
            <p className="ops-desk__meta">
              <span className={`ops-desk__tag${c.status === 'pending' ? '' : ' ops-desk__tag--done'}`}>
                {STATUS_LABELS[c.status]}
              </span>{' '}
              {c.status === 'pending' ? (
                <span className="ops-desk__tag" data-testid="claim-approvals">
                  {c.approvals} of 2 approvals
                </span>
              ) : null}{' '}
              {formatDateTime(c.createdAt)} · by{' '}
              {c.claimant
                ? `${c.claimant.name} (@${c.claimant.username}, ${c.claimant.email}${c.claimant.emailVerified ? ', verified' : ', not verified'})`
                : c.status === 'approved'
                  ? 'the profile’s owner now'
                  : 'an account that no longer exists'}
            </p>
            <dl className="ops-claims__details">
              <dt>How to verify</dt>
              <dd>{CLAIM_METHOD_LABELS[c.method]}</dd>
              {c.evidence ? (
                <>
                  <dt>{c.method === 'email' ? 'Address' : 'Link'}</dt>
                  <dd>
                    {c.method === 'link' ? (
                      <a className="text-link" href={c.evidence} target="_blank" rel="noreferrer noopener">
                        {c.evidence}
                      </a>
                    ) : (
                      c.evidence
                    )}
                  </dd>
                </>
              ) : null}
              {c.note ? (
                <>
                  <dt>Note</dt>
                  <dd className="ops-desk__text">{c.note}</dd>
                </>
              ) : null}
              {c.status === 'pending' && c.firstApprovedBy ? (
                <>
                  <dt>Approvals</dt>
                  <dd>Approved by {c.firstApprovedBy}: awaiting a second operator.</dd>
                </>
              ) : null}
              {c.decidedAt ? (
                <>
                  <dt>Decided</dt>
                  <dd>
                    {formatDateTime(c.decidedAt)} by {c.decidedBy}
                    {c.reason ? `: ${c.reason}` : ''}
                  </dd>
                </>
              ) : null}
            </dl>
            {c.status === 'pending' ? (
              <div className="ops-desk__actions">
                <button
                  type="button"
                  className="button button--small button--primary"
                  onClick={() => setPending({ kind: 'approve', claim: c })}
                >
                  Approve…
                </button>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => setPending({ kind: 'reject', claim: c })}
                >
                  Reject…
                </button>
              </div>
            ) : null}
          </li>
        )}
      </DeskList>
      {pending?.kind === 'approve' ? (
        <ConfirmDialog
          title={`Approve this claim of @${pending.claim.profile.username}?`}
          confirmLabel="Approve claim"
          onClose={() => setPending(null)}
          onConfirm={async (key) => {
            const claim = await approveClaim(pending.claim.id, key);
            showSuccess(
              claim.status === 'approved'
                ? `@${pending.claim.profile.username} is now an ordinary profile its claimant signs in to.`
                : `${CLAIM_MESSAGES.awaitingSecond} (1 of 2 approvals)`,
            );
            await list.reload();
          }}
        >
          <p>
            A claim takes two operators’ approvals ({pending.claim.approvals} of 2 so far); neither may be the
            claimant or the operator who created the archive. Once approved,{' '}
            {pending.claim.claimant
              ? `${pending.claim.claimant.name} (${pending.claim.claimant.email})`
              : 'the claimant'}{' '}
            will sign in to {pending.claim.profile.name}’s page with their e-mail and password; the account
            they claimed with is closed. The badge goes, the curated answers and their sources stay, and
            people can ask questions.
          </p>
        </ConfirmDialog>
      ) : null}
      {pending?.kind === 'reject' ? (
        <ConfirmDialog
          title={`Reject this claim of @${pending.claim.profile.username}?`}
          confirmLabel="Reject claim"
          onClose={() => setPending(null)}
          note={{
            label: 'Reason (the claimant sees it)',
            rows: 3,
            maxLength: CLAIM_LIMITS.reason,
            missing: CLAIM_MESSAGES.reasonRequired,
          }}
          onConfirm={async (key, reason) => {
            await rejectClaim(pending.claim.id, reason, key);
            showSuccess('The claim is rejected; the claimant sees why.');
            await list.reload();
          }}
        >
          <p>
            The profile stays an archive. The claimant sees your reason on the claim page and by e-mail if
            their address is verified.
          </p>
        </ConfirmDialog>
      ) : null}
    </DeskPage>
  );
}
