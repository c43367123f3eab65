import type { ApiCall } from './call.js';
import { exportsApi } from './exports.js';
import { identityApi, identityBrowserCalls } from './identity.js';
import { onboardingApi } from './onboarding.js';
import { curationOpsApi } from './ops-curation.js';
import { opsStreamsApi } from './ops-streams.js';
import { questionsOpsApi, supportOpsApi } from './ops-support.js';
import { opsApi } from './ops.js';
import { claimsApi, claimsOpsApi } from './claims.js';
import { paymentsApi, paymentsBrowserCalls } from './payments.js';
import { questionsApi } from './questions.js';
import { sitemapApi } from './sitemap.js';
import { supportApi } from './support.js';
import { trustApi } from './trust.js';

export * from './call.js';
export { exportsApi, exportsInternalCalls } from './exports.js';
export { onboardingApi, onboardingInternalCalls } from './onboarding.js';
export { identityApi, identityBrowserCalls } from './identity.js';
export { paymentsApi, paymentsBrowserCalls } from './payments.js';
export { questionsApi, questionsInternalCalls } from './questions.js';
export { supportApi } from './support.js';
export { opsApi, OPERATOR_ERRORS } from './ops.js';
export * from './claims.js';
export * from './sitemap.js';
export * from './trust.js';
export * from './ops-streams.js';
export * from './ops-support.js';
export * from './ops-curation.js';

/**
 * Every /api call of every service. The BFF forwards exactly these and documents them (OpenAPI); each service
 * registers its own with `routeFor` from the kit. Add a service's map here when it declares its calls.
 */
export const API_CALLS: readonly ApiCall[] = [
  ...Object.values(questionsApi),
  ...Object.values(supportApi),
  ...Object.values(paymentsApi),
  ...Object.values(sitemapApi),
  ...Object.values(trustApi),
  ...Object.values(identityApi),
  ...Object.values(opsStreamsApi).flatMap((calls) => Object.values(calls)),
  ...Object.values(supportOpsApi),
  ...Object.values(questionsOpsApi),
  // Issue 18: curated Q&A of archive profiles from the console (api/ops-curation.ts).
  ...Object.values(curationOpsApi),
  ...Object.values(opsApi),
  // Issue 18: claiming an archive profile (api/claims.ts, ADR 0034).
  ...Object.values(claimsApi),
  ...Object.values(claimsOpsApi),
  // Issue 15: the data export (api/exports.ts).
  ...Object.values(exportsApi),
  // Issue 28: the owner's set-up checklist (api/onboarding.ts, ADR 0056).
  ...Object.values(onboardingApi),
];

/**
 * What browsers and providers call that is not a JSON /api call: webhooks (raw, signed bytes), hosted HTML pages and
 * their form posts, images. The BFF forwards these as they come (`bodyKind`); each service registers its own.
 */
export const BROWSER_CALLS: readonly ApiCall[] = [
  ...Object.values(paymentsBrowserCalls),
  ...Object.values(identityBrowserCalls),
];
