/** The abuse-report aggregate (issue 18): events, state, evolve and decide. Pure — no I/O (lint-enforced). */
import { REPORT_REASONS, type ReportReason, type ReportTarget } from '@ques/contracts';
import { badRequest, conflict, decider, notFound, unreachable } from '@ques/kit/domain';

export type AbuseReportEvent =
  | {
      type: 'AbuseReported';
      data: {
        reportId: string;
        target: ReportTarget;
        reason: ReportReason;
        note: string | null;
        /** The signed-in reporter, or null for a guest. */
        userId: string | null;
        username: string | null;
        reportedAt: string;
      };
    }
  | {
      type: 'AbuseReportResolved';
      data: { reportId: string; resolution: 'hidden' | 'dismissed'; note: string | null; operator: string; resolvedAt: string };
    };

export type AbuseReportState =
  | { status: 'none' }
  | { status: 'open' | 'hidden' | 'dismissed'; reportId: string; resolution: { note: string | null } | null };

export type AbuseReportCommand =
  | {
      type: 'Report';
      data: {
        reportId: string;
        target: ReportTarget;
        reason: ReportReason;
        note: string | null;
        reporter: { userId: string; username: string } | null;
        now: Date;
      };
    }
  | { type: 'Resolve'; data: { resolution: 'hidden' | 'dismissed'; note: string | null; operator: string; now: Date } };

export const abuseReportStreamId = (reportId: string) => `abuse-report-${reportId}`;

export function evolveAbuseReport(state: AbuseReportState, event: AbuseReportEvent): AbuseReportState {
  switch (event.type) {
    case 'AbuseReported':
      return { status: 'open', reportId: event.data.reportId, resolution: null };
    case 'AbuseReportResolved':
      if (state.status === 'none') return state;
      return { ...state, status: event.data.resolution, resolution: { note: event.data.note } };
    default:
      return unreachable(event);
  }
}

export function decideAbuseReport(command: AbuseReportCommand, state: AbuseReportState): AbuseReportEvent[] {
  switch (command.type) {
    case 'Report': {
      // A retried submit (same Idempotency-Key, same derived id) records nothing new.
      if (state.status !== 'none') return [];
      const { reportId, target, reason, reporter, now } = command.data;
      if (!REPORT_REASONS.includes(reason)) throw badRequest('Please choose a reason.');
      const note = command.data.note?.trim() || null;
      return [
        {
          type: 'AbuseReported',
          data: {
            reportId,
            target,
            reason,
            note,
            userId: reporter?.userId ?? null,
            username: reporter?.username ?? null,
            reportedAt: now.toISOString(),
          },
        },
      ];
    }
    case 'Resolve': {
      if (state.status === 'none') throw notFound('Not found');
      if (state.status === command.data.resolution) return [];
      if (state.status !== 'open') throw conflict('This report is already resolved.');
      return [
        {
          type: 'AbuseReportResolved',
          data: {
            reportId: state.reportId,
            resolution: command.data.resolution,
            note: command.data.note?.trim() || null,
            operator: command.data.operator,
            resolvedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const abuseReportDecider = decider((): AbuseReportState => ({ status: 'none' }), evolveAbuseReport, decideAbuseReport);
