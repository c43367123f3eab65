import type { ApiCall } from './call.js';
import { questionsApi } from './questions.js';
import { supportApi } from './support.js';

export * from './call.js';
export { questionsApi, questionsInternalCalls } from './questions.js';
export { supportApi } from './support.js';

/**
 * Every /api call of every service. The BFF forwards exactly these and documents them (OpenAPI); each service
 * registers its own with `routeFor` from the kit. Add a service's map here when it declares its calls.
 */
export const API_CALLS: readonly ApiCall[] = [...Object.values(questionsApi), ...Object.values(supportApi)];

/**
 * What the BFF forwards besides the web app's JSON /api calls: avatar images, the payment provider's webhook and the
 * test-mode provider's hosted pages (bodies forwarded unparsed). Add a service's map here when it declares them (until
 * then the BFF routes them from its transitional list, bff/src/not-yet-declared.ts).
 */
export const BROWSER_CALLS: readonly ApiCall[] = [];
