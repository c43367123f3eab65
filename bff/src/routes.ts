import { API_CALLS, BROWSER_CALLS, type ApiCall } from '@ques/contracts';
import type { ServiceName } from './upstreams.js';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  service: ServiceName;
  /** The BFF rejects calls without a valid access token before they reach the service. */
  auth?: boolean;
  /** Only a platform operator's token (anyone else: 404). */
  operator?: boolean;
  /** Stricter per-IP limit for credential endpoints. */
  rateLimit?: 'auth';
  /** A multipart upload: streamed through to the service unparsed (the service enforces its own size limit). */
  upload?: boolean;
  /** Forwarded byte for byte with its content type, unparsed (webhook signatures, HTML form posts). */
  raw?: boolean;
}

/** `POST /api/questions/:id` and `POST /api/questions/:questionId` are one route. */
export const routeKey = (call: Pick<ApiCall, 'method' | 'path'>): string =>
  `${call.method} ${call.path.replace(/:\w+/g, ':')}`;

/**
 * Everything the BFF forwards, one entry per route: the calls the services declared in contracts (`API_CALLS`,
 * `BROWSER_CALLS`). Two declarations of one route (parameter names aside) are a mistake the table refuses.
 */
export function forwardedCalls(declared: readonly ApiCall[] = [...API_CALLS, ...BROWSER_CALLS]): ApiCall[] {
  const byRoute = new Map<string, ApiCall>();
  for (const call of declared) {
    const key = routeKey(call);
    if (byRoute.has(key)) throw new Error(`${key} is declared twice (${byRoute.get(key)!.id}, ${call.id})`);
    byRoute.set(key, call);
  }
  return [...byRoute.values()];
}

/** A call as the route table entry it was before the declarations (what fuzzers and benchmarks iterate). */
export const toApiRoute = (call: ApiCall): ApiRoute => ({
  method: call.method,
  url: call.path,
  service: call.service,
  ...(call.auth === 'required' ? { auth: true } : {}),
  ...(call.auth === 'operator' ? { auth: true, operator: true } : {}),
  ...(call.rateLimit ? { rateLimit: call.rateLimit } : {}),
  ...(call.bodyKind === 'multipart' ? { upload: true } : {}),
  ...(call.bodyKind === 'raw' ? { raw: true } : {}),
});

/** The BFF's route table (spec §7's /api plus the browser routes), built from the declarations. */
export const API_ROUTES: ApiRoute[] = forwardedCalls().map(toApiRoute);
