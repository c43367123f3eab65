/**
 * The owner's set-up checklist (issue 28, docs/adr/0056): the explicit marks as a small aggregate
 * (`onboarding-<userId>`, private to identity), and the checklist computed from them and the facts. Pure — no I/O.
 */
import {
  DEFAULT_BRAND_COLOR_LIGHT,
  DEFAULT_BRAND_COLOR_MAIN,
  isDefaultAvatar,
  ONBOARDING_STEPS,
  type OnboardingChecklist,
  type OnboardingMark,
  type OnboardingPaymentsFacts,
  type OnboardingQuestionsFacts,
} from '@ques/contracts';
import { decider, unreachable } from '@ques/kit/domain';

export type OnboardingEvent =
  | { type: 'OnboardingLinkShared'; data: { userId: string; sharedAt: string } }
  | { type: 'OnboardingDismissed'; data: { userId: string; dismissedAt: string } }
  | { type: 'OnboardingRestored'; data: { userId: string; restoredAt: string } };

export const ONBOARDING_EVENT_TYPES: ReadonlySet<string> = new Set<OnboardingEvent['type']>([
  'OnboardingLinkShared',
  'OnboardingDismissed',
  'OnboardingRestored',
]);

export interface OnboardingState {
  linkShared: boolean;
  dismissed: boolean;
}

export type OnboardingCommand = { type: 'MarkOnboarding'; data: { userId: string; mark: OnboardingMark; now: Date } };

export const onboardingStreamId = (userId: string) => `onboarding-${userId}`;

const initialOnboardingState = (): OnboardingState => ({ linkShared: false, dismissed: false });

function evolveOnboarding(state: OnboardingState, event: OnboardingEvent): OnboardingState {
  switch (event.type) {
    case 'OnboardingLinkShared':
      return { ...state, linkShared: true };
    case 'OnboardingDismissed':
      return { ...state, dismissed: true };
    case 'OnboardingRestored':
      return { ...state, dismissed: false };
    default:
      return unreachable(event);
  }
}

/** Marking what is already so is no event (copying the link twice, dismissing twice). */
function decideOnboarding(command: OnboardingCommand, state: OnboardingState): OnboardingEvent[] {
  const { userId, mark, now } = command.data;
  const at = now.toISOString();
  switch (mark) {
    case 'linkShared':
      return state.linkShared ? [] : [{ type: 'OnboardingLinkShared', data: { userId, sharedAt: at } }];
    case 'dismissed':
      return state.dismissed ? [] : [{ type: 'OnboardingDismissed', data: { userId, dismissedAt: at } }];
    case 'restored':
      return state.dismissed ? [{ type: 'OnboardingRestored', data: { userId, restoredAt: at } }] : [];
    default:
      return unreachable(mark);
  }
}

export const onboardingDecider = decider(initialOnboardingState, evolveOnboarding, decideOnboarding);

/** What identity's own profile says. */
export interface ProfileFacts {
  username: string;
  avatarUrl: string;
  bio: string;
  brandColorMain: string;
  brandColorLight: string;
}

/** The checklist: facts read now (a removed photo is a step to do again), marks as recorded. */
export function checklistOf(
  profile: ProfileFacts,
  payments: OnboardingPaymentsFacts,
  questions: OnboardingQuestionsFacts,
  marks: OnboardingState,
): OnboardingChecklist {
  const steps: OnboardingChecklist['steps'] = {
    photo: !isDefaultAvatar(profile.avatarUrl),
    bio: profile.bio.trim() !== '',
    colors:
      profile.brandColorMain.toUpperCase() !== DEFAULT_BRAND_COLOR_MAIN.toUpperCase() ||
      profile.brandColorLight.toUpperCase() !== DEFAULT_BRAND_COLOR_LIGHT.toUpperCase(),
    payouts: payments.payoutsConnected,
    tips: payments.tippingEnabled,
    publicAnswer: questions.publicAnswer,
    linkShared: marks.linkShared,
  };
  return {
    username: profile.username,
    steps,
    done: ONBOARDING_STEPS.every((step) => steps[step]),
    dismissed: marks.dismissed,
  };
}
