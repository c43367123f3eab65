import type pg from 'pg';
import { describe } from './figures.js';

/**
 * The latency bench's breakdown lines (./latency.ts): where "authorised → held" and "answer → captured" go, hop by
 * hop, from the event stores' own timestamps (one clock, the machine's).
 */
export async function reportHops(
  db: pg.Client,
  ids: string[],
  progress: (line: string) => void,
): Promise<void> {
  // Where authorised → held goes, hop by hop (one clock): payments' append of TipAuthorized → the relay's mark
  // of its outbox row (after JetStream's ack) and → questions' consumer transaction starting on it
  // (processed_events) → questions' append of QuestionAsked.
  const hops = (
    await db.query(
      `SELECT extract(epoch FROM (o.published_at - a.recorded_at)) * 1000 AS relayed,
              extract(epoch FROM (p.processed_at - a.recorded_at)) * 1000 AS consumed,
              extract(epoch FROM (h.recorded_at - p.processed_at)) * 1000 AS handled
       FROM payments.events a
       JOIN payments.outbox o USING (event_id)
       JOIN questions.processed_events p ON p.event_id = a.event_id AND p.consumer = 'questions--tips'
       JOIN questions.events h ON h.type = 'QuestionAsked' AND h.data->>'questionId' = a.data->>'questionId'
       WHERE a.type = 'TipAuthorized' AND a.data->>'questionId' = ANY($1)`,
      [ids],
    )
  ).rows as { relayed: string; consumed: string; handled: string }[];
  const hop = (key: 'relayed' | 'consumed' | 'handled') => describe(hops.map((r) => Number(r[key])));
  progress(
    `authorised → held by hop (${hops.length}): → relayed (JetStream ack, marked) ${hop('relayed')}; ` +
      `→ questions' consumer transaction begins ${hop('consumed')}; → QuestionAsked appended ${hop('handled')}`,
  );
  // Where answer → captured goes (one clock): questions' append of AnswerPosted → payments' consumer transaction
  // starting on it → TipCaptureRequested appended (with the settle job) → the settle job claimed (its done_at is
  // the claim's clock) → TipCaptured appended. Captures made by finalize-payment rather than the job are counted.
  const captureHops = (
    await db.query(
      `SELECT extract(epoch FROM (p.processed_at - a.recorded_at)) * 1000 AS consumed,
              extract(epoch FROM (r.recorded_at - p.processed_at)) * 1000 AS requested,
              extract(epoch FROM (j.done_at - r.recorded_at)) * 1000 AS claimed,
              extract(epoch FROM (c.recorded_at - j.done_at)) * 1000 AS captured,
              c.metadata->>'correlationId' = j.key AS by_job
       FROM questions.events a
       JOIN payments.processed_events p ON p.event_id = a.event_id AND p.consumer = 'payments--questions'
       JOIN payments.events r ON r.type = 'TipCaptureRequested' AND r.data->>'questionId' = a.data->>'questionId'
       JOIN payments.events c ON c.type = 'TipCaptured' AND c.data->>'questionId' = a.data->>'questionId'
       JOIN payments.scheduled_jobs j ON j.key = 'settle-tip:' || (a.data->>'questionId')
       WHERE a.type = 'AnswerPosted' AND a.data->>'questionId' = ANY($1)`,
      [ids],
    )
  ).rows as { consumed: string; requested: string; claimed: string; captured: string; by_job: boolean }[];
  const captureHop = (key: 'consumed' | 'requested' | 'claimed' | 'captured') =>
    describe(captureHops.map((r) => Number(r[key])));
  progress(
    `answer → captured by hop (${captureHops.length}, ${captureHops.filter((r) => r.by_job).length} captured by the settle job): ` +
      `→ payments' consumer transaction begins ${captureHop('consumed')}; → TipCaptureRequested appended ${captureHop('requested')}; ` +
      `→ settle job claimed ${captureHop('claimed')}; → TipCaptured appended ${captureHop('captured')}`,
  );
}
