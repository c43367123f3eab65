import type { ServiceName } from './upstreams.js';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  service: ServiceName;
  /** The BFF rejects calls without a valid access token before they reach the service. */
  auth?: boolean;
  /** Stricter per-IP limit for credential endpoints. */
  rateLimit?: 'auth';
}

/** The /api of spec §7, route by route: which service answers it. Services serve the same paths. */
export const API_ROUTES: ApiRoute[] = [
  { method: 'POST', url: '/api/users', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/login', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/refresh-token', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/logout', service: 'identity' },
  { method: 'GET', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'PUT', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'GET', url: '/api/users/public/:username', service: 'identity' },
];
