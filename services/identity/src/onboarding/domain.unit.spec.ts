import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR_URL, DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN } from '@ques/contracts';
import { deciderSpec } from '@ques/kit/testing';
import { checklistOf, onboardingDecider } from './domain.js';

const userId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const now = new Date('2026-11-29T04:00:00.000Z');
const mark = (m: 'linkShared' | 'dismissed' | 'restored') => ({ type: 'MarkOnboarding', data: { userId, mark: m, now } }) as const;
const spec = deciderSpec(onboardingDecider);
const fresh = { username: 'ada', avatarUrl: DEFAULT_AVATAR_URL, bio: '', brandColorMain: DEFAULT_BRAND_COLOR_MAIN, brandColorLight: DEFAULT_BRAND_COLOR_LIGHT };
const noFacts = { payoutsConnected: false, tippingEnabled: false };

describe('the set-up checklist (issue 28, ADR 0056)', () => {
  it('marks once: sharing or dismissing again is no event; restoring undoes a dismissal', () => {
    const shared = spec.given([]).when(mark('linkShared')).then([{ type: 'OnboardingLinkShared', data: { userId, sharedAt: now.toISOString() } }]);
    spec.given(shared).when(mark('linkShared')).thenNothingHappened();
    spec.given([]).when(mark('restored')).thenNothingHappened();
    const dismissed = spec.given(shared).when(mark('dismissed')).then((events) => expect(events).toHaveLength(1));
    expect(spec.given([...shared, ...dismissed]).state()).toEqual({ linkShared: true, dismissed: true });
    spec.given(dismissed).when(mark('restored')).then([{ type: 'OnboardingRestored', data: { userId, restoredAt: now.toISOString() } }]);
  });

  it('reads each fact from the state: a blank bio, the default avatar and colours are steps still to do', () => {
    const none = checklistOf(fresh, noFacts, { publicAnswer: false }, { linkShared: false, dismissed: false });
    expect(none).toEqual({
      username: 'ada',
      steps: { photo: false, bio: false, colors: false, payouts: false, tips: false, publicAnswer: false, linkShared: false },
      done: false,
      dismissed: false,
    });
    expect(checklistOf({ ...fresh, bio: '   ' }, noFacts, { publicAnswer: false }, { linkShared: false, dismissed: false }).steps.bio).toBe(false);
    // The default colours in another case are still the defaults.
    expect(checklistOf({ ...fresh, brandColorMain: DEFAULT_BRAND_COLOR_MAIN.toLowerCase() }, noFacts, { publicAnswer: false }, { linkShared: false, dismissed: false }).steps.colors).toBe(false);
    const all = checklistOf(
      { ...fresh, avatarUrl: `/images/avatars/${userId}/k1.webp?v=2`, bio: 'Bread.', brandColorLight: '#F1FAF6' },
      { payoutsConnected: true, tippingEnabled: true },
      { publicAnswer: true },
      { linkShared: true, dismissed: false },
    );
    expect(all.done).toBe(true);
  });
});
