import type { ApiCall } from './call.js';
import { identityApi, identityBrowserCalls } from './identity.js';
import { questionsApi } from './questions.js';
import { supportApi } from './support.js';

export * from './call.js';
export { identityApi, identityBrowserCalls } from './identity.js';
export { questionsApi, questionsInternalCalls } from './questions.js';
export { supportApi } from './support.js';

/**
 * Every /api call of every service. The BFF forwards exactly these and documents them (OpenAPI); each service
 * registers its own with `routeFor` from the kit. Add a service's map here when it declares its calls.
 */
export const API_CALLS: readonly ApiCall[] = [
  ...Object.values(questionsApi),
  ...Object.values(supportApi),
  ...Object.values(identityApi),
];

/**
 * Calls a browser makes outside /api that the BFF routes to a service too (images, payment provider pages and
 * webhooks). Not part of the /api documentation.
 */
export const BROWSER_CALLS: readonly ApiCall[] = [...Object.values(identityBrowserCalls)];
