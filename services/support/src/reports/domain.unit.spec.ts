import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@ques/kit/testing';
import { abuseReportDecider, type AbuseReportCommand } from './domain.js';

const now = new Date('2026-11-23T00:00:00.000Z');
const reportId = '4a4b8e0e-9d62-4f57-9a55-3b3c6a1d2e01';
const spec = deciderSpec(abuseReportDecider);
const report: AbuseReportCommand = {
  type: 'Report',
  data: {
    reportId,
    target: { kind: 'answer', questionId: '0b5f3c1e-8f4a-4d8e-9b1e-2f6a7c9d0e11', username: 'ada' },
    reason: 'Spam',
    note: '  buy now  ',
    reporter: null,
    now,
  },
};
const resolve = (resolution: 'hidden' | 'dismissed'): AbuseReportCommand => ({
  type: 'Resolve',
  data: { resolution, note: 'done', operator: 'olive', now },
});

describe('abuse report decider (issue 18)', () => {
  it('records a report once (a retried submit adds nothing)', () => {
    const [event] = abuseReportDecider.decide(report, spec.given([]).state());
    expect(event).toMatchObject({ type: 'AbuseReported', data: { reportId, note: 'buy now', userId: null, reason: 'Spam' } });
    spec.given([event!]).when(report).thenNothingHappened();
  });

  it('is resolved once: the same resolution again is already so, another is refused', () => {
    const [reported] = abuseReportDecider.decide(report, spec.given([]).state());
    const [resolved] = abuseReportDecider.decide(resolve('hidden'), spec.given([reported!]).state());
    expect(resolved).toMatchObject({ type: 'AbuseReportResolved', data: { resolution: 'hidden', operator: 'olive' } });
    spec.given([reported!, resolved!]).when(resolve('hidden')).thenNothingHappened();
    spec.given([reported!, resolved!]).when(resolve('dismissed')).thenThrows({ status: 409 });
    spec.given([]).when(resolve('dismissed')).thenThrows({ status: 404 });
  });

  it('refuses an unknown reason', () => {
    spec.given([]).when({ ...report, data: { ...report.data, reason: 'Boring' as never } }).thenThrows({ status: 400 });
  });
});
