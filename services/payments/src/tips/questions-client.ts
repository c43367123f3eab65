import { ERROR_STATUS, type ErrorCode, type ScreenAskRequest, type SubmitTippedQuestionRequest } from '@ques/contracts';
import { AppError, internalCallHeaders } from '@ques/kit';
import { postScreen } from './screening.js';

/** The one call payments makes to questions: hand over the tipped question while the asker is at checkout. */
export interface QuestionsClient {
  submitTippedQuestion(body: SubmitTippedQuestionRequest, correlationId: string): Promise<void>;
  /** Issue 16: may this question be sent (pause, cap, filters, blocks)? Throws the refusal. See `screening.ts`. */
  screenAsk(body: ScreenAskRequest, correlationId: string): Promise<void>;
}

export interface HttpQuestionsClientOptions {
  /** Base URL of the questions service (internal network, not the BFF). */
  baseUrl: string;
  /** `INTERNAL_API_TOKEN`, sent as `x-internal-token` (required in every run mode, ADR 0060). */
  internalToken: string;
  timeoutMs?: number;
}

const CODE_BY_STATUS = new Map<number, ErrorCode>(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);

/**
 * `POST /internal/questions/tipped`. Questions checks the draft with the ask rules and answers in the spec's words;
 * a 4xx is passed on as it is (the asker sees the same message a free question would get).
 */
export class HttpQuestionsClient implements QuestionsClient {
  constructor(private readonly opts: HttpQuestionsClientOptions) {}

  screenAsk(body: ScreenAskRequest, correlationId: string): Promise<void> {
    return postScreen(this.opts, body, correlationId);
  }

  async submitTippedQuestion(body: SubmitTippedQuestionRequest, correlationId: string): Promise<void> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-correlation-id': correlationId,
      ...internalCallHeaders(this.opts.internalToken),
    };
    let response: Response;
    try {
      response = await fetch(new URL('/internal/questions/tipped', this.opts.baseUrl), {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new AppError('UNAVAILABLE', 'Failed to create checkout session', {
        cause: String((err as Error).message),
      });
    }
    if (response.ok) {
      await response.body?.cancel();
      return;
    }
    const payload = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const code = CODE_BY_STATUS.get(response.status);
    if (response.status < 500 && code && typeof payload?.message === 'string')
      throw new AppError(code, payload.message);
    throw new AppError('UNAVAILABLE', 'Failed to create checkout session', { status: response.status });
  }
}
