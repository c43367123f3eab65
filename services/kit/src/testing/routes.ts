import type { FastifyInstance, RouteOptions } from 'fastify';
import { registeredRoutes, type HttpApp } from '../http/http-app.js';

export type SchemaPart = 'params' | 'querystring' | 'body' | 'response';

export interface RouteWithoutSchemas {
  method: string;
  url: string;
  missing: SchemaPart[];
}

export interface SchemaRules {
  /** Routes that must declare a querystring schema. Default: none required (with the zod type provider an undeclared `request.query` is `unknown`, so a route that reads it declares it anyway). */
  querystring?: (route: { method: string; url: string }) => boolean;
  /** Routes left out of the check (say, static files served by a plugin). */
  ignore?: (route: { method: string; url: string }) => boolean;
}

/**
 * Collects the routes registered on any Fastify app from now on (an onRoute hook): call it before the routes are
 * registered. Apps made by the kit's `createHttpApp` collect their routes from the start (`registeredRoutes`).
 */
export function collectRoutes(app: FastifyInstance): RouteOptions[] {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void routes.push(route));
  return routes;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Each route that lacks a schema it needs: `params` when its URL has parameters, `body` for POST, PUT and PATCH,
 * `response` always (at least one status), `querystring` where `rules.querystring` says so. Empty when every route
 * declares what it takes and returns, which is what a "no route without schemas" test asserts.
 */
export function routesWithoutSchemas(
  source: HttpApp | FastifyInstance | readonly RouteOptions[],
  rules: SchemaRules = {},
): RouteWithoutSchemas[] {
  const routes = Array.isArray(source)
    ? (source as readonly RouteOptions[])
    : registeredRoutes(source as HttpApp);
  const report: RouteWithoutSchemas[] = [];
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes and CORS preflights carry no schema of their own.
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      const id = { method, url: route.url };
      if (rules.ignore?.(id)) continue;
      const schema = route.schema ?? {};
      const missing: SchemaPart[] = [];
      if (/[:*]/.test(route.url) && !schema.params) missing.push('params');
      if (rules.querystring?.(id) && !schema.querystring) missing.push('querystring');
      if (BODY_METHODS.has(method) && !schema.body) missing.push('body');
      if (!schema.response || Object.keys(schema.response).length === 0) missing.push('response');
      if (missing.length > 0) report.push({ ...id, missing });
    }
  }
  return report;
}
