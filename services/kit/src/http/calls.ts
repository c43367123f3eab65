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

/**
 * Registers the handler of a call declared in contracts: its method, path and schemas (error statuses included, so
 * the OpenAPI document and the serialiser see them), and `idempotent` as the kit's Idempotency-Key opt-in.
 */
export function routeFor<S extends CallSchema>(
  app: HttpApp,
  call: ApiCall<S>,
  handler: CallHandler<S>,
  options: CallRouteOptions = {},
): void {
  app.route({
    method: call.method,
    url: call.path,
    ...options,
    schema: { ...call.schema, response: responseSchemas(call), operationId: call.id, summary: call.summary },
    config: { ...options.config, ...(call.idempotent ? { idempotent: true } : {}) },
    handler,
  });
}
