/**
 * The owner's set-up checklist (issue 28, docs/adr/0056): zod-free, so the web app imports the step list and copy.
 * Steps that are facts (photo, bio, colours, payouts, tips, a public answer) are computed from state each time;
 * the explicit ones (link shared, dismissed) are identity's events.
 */
export const ONBOARDING_STEPS = ['photo', 'bio', 'colors', 'payouts', 'tips', 'publicAnswer', 'linkShared'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** What the owner can mark by hand: the link shared (copy or share), the checklist dismissed (or brought back). */
export const ONBOARDING_MARKS = ['linkShared', 'dismissed', 'restored'] as const;
export type OnboardingMark = (typeof ONBOARDING_MARKS)[number];

export const ONBOARDING_MESSAGES = {
  invalidMark: `mark must be one of ${ONBOARDING_MARKS.join(', ')}`,
} as const;

/** Where the checklist lives in the admin area. */
export const ONBOARDING_PATH = '/admin/setup';
