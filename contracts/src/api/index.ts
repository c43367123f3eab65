import { browserCalls } from './browser.js';
import type { ApiCall } from './call.js';
import { questionsApi } from './questions.js';
import { supportApi } from './support.js';

export * from './call.js';
export { questionsApi, questionsInternalCalls } from './questions.js';
export { supportApi } from './support.js';
export { browserCalls } from './browser.js';

/**
 * Every /api call of every service. The BFF forwards exactly these and documents them (OpenAPI); each service
 * registers its own with `routeFor` from the kit. Add a service's map here when it declares its calls.
 */
export const API_CALLS: readonly ApiCall[] = [...Object.values(questionsApi), ...Object.values(supportApi)];

/**
 * What the BFF forwards besides /api calls of the web app's client: avatar images, the payment provider's webhook and
 * the test-mode provider's hosted pages (bodies forwarded unparsed).
 */
export const BROWSER_CALLS: readonly ApiCall[] = Object.values(browserCalls);
