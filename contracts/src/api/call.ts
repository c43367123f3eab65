import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { ZInternalCallHeaders } from '../questions.js';

/*
 * Every /api call is declared once, here in contracts: method, path, which service answers it, who may call it and
 * its zod schemas. The service registers its handler on the declaration (`routeFor` in the kit), the BFF builds its
 * forwarding table and the OpenAPI document from the same objects, so a path or a schema cannot drift between them.
 */

export type ServiceName = 'identity' | 'questions' | 'payments' | 'support';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `{ message, code }`: every error body on /api (the web app shows `message`). */
export const ZErrorBody = z.object({
  message: z.string(),
  code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
});

export interface CallSchema {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** Success responses by status; error statuses come from `errors`. */
  response: Record<number, z.ZodType>;
}

export interface ApiCall<S extends CallSchema = CallSchema> {
  /** Stable name of the call (the OpenAPI operationId), e.g. `askQuestion`. */
  id: string;
  method: HttpMethod;
  /** Fastify-style path, e.g. `/api/questions/:id`. */
  path: string;
  service: ServiceName;
  /** One line for the docs. */
  summary: string;
  /** Longer notes for the docs (spec rules, what changes with a token…). */
  description?: string;
  /**
   * `required`: the BFF refuses the call without a valid access token before it reaches the service;
   * `optional`: a token changes the answer (signed-in asker, owner's own view); `none`: the token is ignored;
   * `operator`: a platform operator's token only — anyone else gets the 404 of a path that does not exist, at the BFF
   * and again at the service (the kit's `requireOperator`; issue 18, ADR 0031).
   */
  auth: 'required' | 'optional' | 'none' | 'operator';
  /** Stricter per-client limit at the BFF (credential and guest-write routes). */
  rateLimit?: 'auth';
  /** Honours an `Idempotency-Key` header (ADR 0016). */
  idempotent?: boolean;
  /**
   * How the body travels: `json` (default) is parsed and validated; `multipart` streams through the BFF unparsed
   * (the owning service enforces its limits); `raw` is forwarded byte for byte (webhook signatures, HTML forms).
   */
  bodyKind?: 'json' | 'multipart' | 'raw';
  /** Error statuses this call answers, each with the messages (spec §8 wording) it may carry. */
  errors?: Partial<Record<number, readonly string[]>>;
  schema: S;
}

/** Declares a call; `const` keeps the literal schema types so handlers are typed from them. */
export function defineCall<const S extends CallSchema>(call: ApiCall<S>): ApiCall<S> {
  return call;
}

/** The response schemas of a call including its error statuses, as Fastify and OpenAPI want them. */
export function responseSchemas(call: ApiCall): Record<number, z.ZodType> {
  const errors = Object.fromEntries(
    Object.keys(call.errors ?? {}).map((status) => [Number(status), ZErrorBody]),
  );
  return { ...errors, ...call.schema.response };
}

/** What an internal call without the deployment's internal token is answered (401). */
export const INTERNAL_TOKEN_REQUIRED = 'This internal call needs the internal token.';

/**
 * Declares a service-to-service call on the internal network (`/internal/*`, never forwarded by the BFF): no user
 * token (`auth: 'none'`), the `x-internal-token` header — required in every run mode (ADR 0060) — and 401 without it.
 */
export function defineInternalCall<const S extends Omit<CallSchema, 'headers'>>(
  call: Omit<ApiCall<S>, 'auth'>,
): ApiCall<{ headers: typeof ZInternalCallHeaders } & S> {
  return defineCall({
    ...call,
    auth: 'none',
    errors: { 401: [INTERNAL_TOKEN_REQUIRED], ...call.errors },
    schema: { headers: ZInternalCallHeaders, ...call.schema },
  });
}
