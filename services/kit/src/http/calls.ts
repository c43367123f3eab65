import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { responseSchemas, type ApiCall, type CallSchema } from '@ques/contracts';
import { requireOperator } from './auth.js';
import type { HttpApp } from './http-app.js';

/** A handler typed by its call's schemas: `request.params`, `.query`, `.body` and the reply come from contracts. */
export type CallHandler<S extends CallSchema> = RouteHandlerMethod<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/** What a service may add to a call's route: its own limits and hooks (rate limits, body size, a pre-handler). */
export type CallRouteOptions = Pick<RouteShorthandOptions, 'bodyLimit' | 'preHandler' | 'onRequest'> & {
  config?: Record<string, unknown>;
};

/** The guard of a call declared `auth: 'operator'`: before anything else, anyone but an operator gets a 404. */
const operatorOnly = async (request: Parameters<typeof requireOperator>[0]) => void (await requireOperator(request));

/**
 * Registers the handler of a call declared in contracts: its method, path and schemas (error statuses included, so
 * the OpenAPI document and the serialiser see them), and `idempotent` as the kit's Idempotency-Key opt-in. A call
 * declared `auth: 'operator'` gets `requireOperator` as its first hook (issue 18): the route cannot forget it, and
 * the handler's own `await requireOperator(request)` returns the same verified claims.
 */
export function routeFor<S extends CallSchema>(
  app: HttpApp,
  call: ApiCall<S>,
  handler: CallHandler<S>,
  options: CallRouteOptions = {},
): void {
  const onRequest = call.auth === 'operator' ? [operatorOnly, ...[options.onRequest ?? []].flat()] : options.onRequest;
  app.route({
    method: call.method,
    url: call.path,
    ...options,
    ...(onRequest ? { onRequest } : {}),
    schema: { ...call.schema, response: responseSchemas(call), operationId: call.id, summary: call.summary },
    config: { ...options.config, ...(call.idempotent ? { idempotent: true } : {}) },
    handler,
  });
}
