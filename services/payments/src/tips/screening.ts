import type { FastifyRequest } from 'fastify';
import {
  DEVICE_HEADER,
  ERROR_STATUS,
  type AskDraft,
  type ErrorCode,
  type ScreenAskRequest,
} from '@ques/contracts';
import { AppError, internalCallHeaders } from '@ques/kit';
import type { HttpQuestionsClientOptions, QuestionsClient } from './questions-client.js';

/*
 * Issue 16: before payments creates a checkout (and so before any card can be held), questions screens the question —
 * the owner's pause and cap, word filters, blocks and the guest limit. One call, `POST /internal/questions/screen`;
 * a refusal is passed on in the asker's words and nothing is created.
 */

/** Screens the draft of a checkout; throws the refusal. Call it before the provider is asked for anything. */
export async function screenCheckout(
  questions: QuestionsClient,
  draft: AskDraft,
  caller: { askerUserId: string | null; questionId: string; device: string | null; network: string | null; correlationId: string },
): Promise<void> {
  await questions.screenAsk(
    {
      toUserId: draft.toUserId,
      question: draft.question,
      detail: draft.detail,
      askerUserId: caller.askerUserId,
      askedEmail: draft.guest?.email ?? null,
      device: caller.device,
      network: caller.network,
      questionId: caller.questionId,
    },
    caller.correlationId,
  );
}

/** The asker's device token (`X-Ques-Device`), as the checkout's screening wants it. */
export function deviceOf(request: FastifyRequest): string | null {
  const device = request.headers[DEVICE_HEADER];
  return typeof device === 'string' ? device : null;
}

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);

/** `POST /internal/questions/screen` over HTTP (what `HttpQuestionsClient.screenAsk` does). */
export async function postScreen(
  opts: HttpQuestionsClientOptions,
  body: ScreenAskRequest,
  correlationId: string,
): Promise<void> {
  const headers = { 'content-type': 'application/json', 'x-correlation-id': correlationId, ...internalCallHeaders(opts.internalToken) };
  let response: Response;
  try {
    response = await fetch(new URL('/internal/questions/screen', opts.baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
  } catch (err) {
    throw new AppError('UNAVAILABLE', 'Failed to create checkout session', { cause: String((err as Error).message) });
  }
  if (response.ok) {
    await response.body?.cancel();
    return;
  }
  const payload = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const code = CODE_BY_STATUS.get(response.status);
  if (response.status < 500 && code && typeof payload?.message === 'string') throw new AppError(code, payload.message);
  throw new AppError('UNAVAILABLE', 'Failed to create checkout session', { status: response.status });
}
