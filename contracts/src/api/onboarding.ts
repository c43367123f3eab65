import {
  ONBOARDING_MESSAGES,
  ZOnboardingChecklist,
  ZOnboardingMarkRequest,
  ZOnboardingPaymentsFacts,
  ZOnboardingQuestionsFacts,
  ZOnboardingUserParams,
} from '../onboarding.js';
import { defineCall, defineInternalCall } from './call.js';
import { AUTH_ERRORS } from './identity.js';

/** The owner's set-up checklist (issue 28, docs/adr/0056): identity answers it, asking payments and questions. */
export const onboardingApi = {
  getChecklist: defineCall({
    id: 'getOnboardingChecklist',
    method: 'GET',
    path: '/api/users/onboarding',
    service: 'identity',
    summary: 'Your set-up checklist: which steps are done, whether all are, whether you dismissed it',
    description:
      'Photo, bio and colours are read from your profile, payouts and tips from payments, a public answer from ' +
      'questions (each at the time of the call); "link shared" and "dismissed" are what you marked.',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS] },
    schema: { response: { 200: ZOnboardingChecklist } },
  }),
  mark: defineCall({
    id: 'markOnboardingStep',
    method: 'POST',
    path: '/api/users/onboarding',
    service: 'identity',
    summary: 'Mark your link shared, or dismiss (or bring back) the set-up checklist',
    auth: 'required',
    errors: { 400: [ONBOARDING_MESSAGES.invalidMark], 401: [...AUTH_ERRORS] },
    schema: { body: ZOnboardingMarkRequest, response: { 200: ZOnboardingChecklist } },
  }),
} as const;

/** Identity reads the other contexts' facts for the checklist (internal network, `x-internal-token`; never the BFF). */
export const onboardingInternalCalls = {
  payments: defineInternalCall({
    id: 'onboardingPaymentsFacts',
    method: 'GET',
    path: '/internal/onboarding/payments/:userId',
    service: 'payments',
    summary: "An owner's payout account complete, tipping on (set-up checklist)",
    schema: { params: ZOnboardingUserParams, response: { 200: ZOnboardingPaymentsFacts } },
  }),
  questions: defineInternalCall({
    id: 'onboardingQuestionsFacts',
    method: 'GET',
    path: '/internal/onboarding/questions/:userId',
    service: 'questions',
    summary: "Whether an owner's public page shows at least one answer (set-up checklist)",
    schema: { params: ZOnboardingUserParams, response: { 200: ZOnboardingQuestionsFacts } },
  }),
} as const;
