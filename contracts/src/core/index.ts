/*
 * `@ques/contracts/core`: the part of the contracts a browser can load. No zod, no I/O — constants, the spec's
 * message tables, pure rules (slug, username, tip options), money formatting, page metadata, and the TypeScript
 * types of the /api shapes. Types declared next to their zod schemas are re-exported type-only (erased from the
 * JavaScript), so the web app shares them without bundling zod. `@ques/contracts` re-exports everything here too.
 * A unit test (core.unit.spec.ts) walks this entry's runtime imports and fails if one reaches zod.
 *
 * Modules are small and split by who needs them (a bundler keeps a whole module in one chunk): the page-load path of
 * the public profile takes identity, questions and page-meta, and not the form messages or the answer page's data.
 */

export * from '../errors.js';
export * from './identity.js';
export * from './handle.js';
export * from './asker-trust.js';
export * from './time-zone.js';
export * from './reach.js';
export * from './money.js';
export * from './page-meta.js';
export * from './payments.js';
export * from './profile-meta.js';
export * from './question-rules.js';
export * from './question-meta.js';
export * from './questions.js';
export * from './support.js';
export * from './reports.js';
export * from './ops.js';
export * from './claims.js';
export * from './onboarding.js';

export type {
  ChangeHandleResponse,
  LoginResponse,
  MessageResponse,
  ProfilePutBody,
  PublicProfile,
  RefreshTokenResponse,
  SignupResponse,
  User,
  VerifyEmailRequest,
} from '../identity.js';
export type { PublicQuestion, Question, QuestionStatus, TipStatus } from '../questions.js';
export type { QuestionStatusPage, SimilarAnswer, StatusLinkResponse } from '../question-status.js';
export type {
  AccountStatusResponse,
  CheckoutSessionResponse,
  ConnectResponse,
  EarningsResponse,
  LedgerEntry,
  PaymentActionResponse,
  SaveTipOptionsResponse,
  TipOptionsResponse,
} from '../payments.js';
export type { CaptchaChallenge, SupportSendRequest, SupportSendResponse } from '../support.js';
export type { OpsAbuseReport, OpsSupportRequest, ReportRequest } from '../api/ops-support.js';
export type { OpsDeadLetter, OpsJob, OpsRetryOutcome, OpsStreamStatus } from '../api/ops-streams.js';
export * from './asking.js';
export * from './embed.js';
export type { DataExport, ExportStatus, LatestExport } from '../exports.js';
export type { OnboardingChecklist } from '../onboarding.js';
