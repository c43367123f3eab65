import type { Kysely } from 'kysely';
import { exportsInternalCalls, isUuid, type ExportTip, type PaymentsExport } from '@ques/contracts';
import { routeFor, type HttpApp } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { PAYMENT_STATUS } from '../http.js';

/*
 * Payments' part of a person's data export (issue 15, docs/adr/0030), read by identity over
 * `GET /internal/exports/payments/:userId`: the tips they received (amount, the platform's fee, net, dates — the
 * ledger's captured figures) and the tips they paid. Only the person's own figures; no provider ids, no other person.
 * Tips still at checkout (`started`) are no tip yet and are left out.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function paymentsOf(db: Kysely<PaymentsDB>, userId: string): Promise<PaymentsExport> {
  const rows = await db
    .selectFrom('tips')
    .leftJoin('ledger', 'ledger.question_id', 'tips.question_id')
    .select([
      'tips.question_id',
      'tips.recipient_user_id',
      'tips.asker_user_id',
      'tips.amount',
      'tips.application_fee',
      'tips.currency',
      'tips.status',
      'tips.release_reason',
      'tips.created_at',
      'ledger.captured_at',
      'ledger.amount as captured_amount',
      'ledger.application_fee as captured_fee',
      'ledger.net as captured_net',
    ])
    .where((eb) => eb.or([eb('tips.recipient_user_id', '=', userId), eb('tips.asker_user_id', '=', userId)]))
    .where('tips.status', '!=', 'started')
    .orderBy('tips.created_at', 'asc')
    .orderBy('tips.question_id', 'asc')
    .execute();
  const tips: ExportTip[] = rows.map((row) => {
    const amount = row.captured_amount ?? row.amount;
    const fee = row.captured_fee ?? row.application_fee;
    return {
      questionId: row.question_id,
      role: row.recipient_user_id === userId ? 'received' : 'paid',
      amountCents: amount,
      feeCents: fee,
      netCents: row.captured_net ?? amount - fee,
      currency: row.currency,
      status: PAYMENT_STATUS[row.status],
      releaseReason: row.release_reason,
      createdAt: iso(row.created_at)!,
      capturedAt: iso(row.captured_at),
    };
  });
  const earnings = new Map<string, { currency: string; grossCents: number; feeCents: number; netCents: number }>();
  for (const tip of tips) {
    if (tip.role !== 'received' || tip.capturedAt === null) continue;
    const sum = earnings.get(tip.currency) ?? { currency: tip.currency, grossCents: 0, feeCents: 0, netCents: 0 };
    sum.grossCents += tip.amountCents;
    sum.feeCents += tip.feeCents;
    sum.netCents += tip.netCents;
    earnings.set(tip.currency, sum);
  }
  return { tips, earnings: [...earnings.values()] };
}


export function registerExportRoutes(app: HttpApp, db: Kysely<PaymentsDB>): void {
  routeFor(app, exportsInternalCalls.payments, async (request) => {
    const { userId } = request.params;
    if (!isUuid(userId)) return { tips: [], earnings: [] };
    return paymentsOf(db, userId.toLowerCase());
  });
}
