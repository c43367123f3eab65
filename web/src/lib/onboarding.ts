import { ONBOARDING_PATH, type OnboardingChecklist, type OnboardingMark } from '@ques/contracts/core';
import { api } from './api';

/*
 * The owner's set-up checklist (issue 28, docs/adr/0056) as the app reads it: here in lib because sign-in (auth) and
 * the set-up page (onboarding) both need it.
 */

/** `GET /api/users/onboarding`: the checklist, computed on the server. */
export const fetchChecklist = (signal?: AbortSignal) => api.json<OnboardingChecklist>('/api/users/onboarding', { signal });

/** Marks the link shared, or dismisses (restores) the checklist; answers the checklist after the mark. */
export const markOnboarding = (mark: OnboardingMark) =>
  api.json<OnboardingChecklist>('/api/users/onboarding', { method: 'POST', body: { mark } });

/**
 * Where an owner goes after signing in: the set-up page while its checklist is neither done nor dismissed, else
 * `next`. A checklist that cannot be read holds nobody up: `next` it is.
 */
export async function landingAfterSignIn(next: string): Promise<string> {
  try {
    const checklist = await fetchChecklist();
    return checklist.done || checklist.dismissed ? next : ONBOARDING_PATH;
  } catch (err) {
    console.warn('The set-up checklist could not be read; going on', err);
    return next;
  }
}
