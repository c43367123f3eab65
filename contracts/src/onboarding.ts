import { z } from 'zod';
import { ONBOARDING_MARKS, ONBOARDING_MESSAGES, ONBOARDING_STEPS } from './core/onboarding.js';

export * from './core/onboarding.js';

/** `GET /api/users/onboarding`: each step done or not, whether all are, and whether the owner dismissed the list. */
export const ZOnboardingChecklist = z.strictObject({
  username: z.string(),
  steps: z.strictObject(Object.fromEntries(ONBOARDING_STEPS.map((s) => [s, z.boolean()])) as Record<(typeof ONBOARDING_STEPS)[number], z.ZodBoolean>),
  done: z.boolean(),
  dismissed: z.boolean(),
});
export type OnboardingChecklist = z.infer<typeof ZOnboardingChecklist>;

/** `POST /api/users/onboarding`: one explicit step. */
export const ZOnboardingMarkRequest = z.object({
  mark: z.enum(ONBOARDING_MARKS, { error: ONBOARDING_MESSAGES.invalidMark }),
});
export type OnboardingMarkRequest = z.infer<typeof ZOnboardingMarkRequest>;

export const ZOnboardingUserParams = z.object({ userId: z.string() });

/** Payments' facts for the checklist (`GET /internal/onboarding/payments/:userId`). */
export const ZOnboardingPaymentsFacts = z.strictObject({ payoutsConnected: z.boolean(), tippingEnabled: z.boolean() });
export type OnboardingPaymentsFacts = z.infer<typeof ZOnboardingPaymentsFacts>;

/** Questions' fact for the checklist (`GET /internal/onboarding/questions/:userId`): any answer on the public page. */
export const ZOnboardingQuestionsFacts = z.strictObject({ publicAnswer: z.boolean() });
export type OnboardingQuestionsFacts = z.infer<typeof ZOnboardingQuestionsFacts>;
