import { IdentityEvents, type UserSnapshot } from '@ques/contracts';
import type { IntegrationMapper, RecordedEvent } from '@ques/kit';
import { CLAIM_EVENT_TYPES } from '../claims/domain.js';
import { ONBOARDING_EVENT_TYPES } from '../onboarding/domain.js';
import type { UserEvent, UserProfile } from './domain/user.js';

const snapshot = (p: UserProfile): UserSnapshot => ({
  userId: p.userId,
  username: p.username,
  name: p.name,
  email: p.email,
  bio: p.bio,
  avatarUrl: p.avatarUrl,
  brandColorMain: p.brandColorMain,
  brandColorLight: p.brandColorLight,
  archiveProfile: p.archiveProfile,
  emailVerified: p.emailVerified ?? false,
});

/** The public subset of identity's events: never the password hash. */
export const identityIntegration: IntegrationMapper = (recorded: RecordedEvent) => {
  // Profile claims are identity's own business (ADR 0034): an approval reaches the others as the profile's snapshot.
  if (CLAIM_EVENT_TYPES.has(recorded.type)) return null;
  // The set-up checklist's marks (issue 28) are nobody else's business either.
  if (ONBOARDING_EVENT_TYPES.has(recorded.type)) return null;
  const e = { type: recorded.type, data: recorded.data } as UserEvent;
  switch (e.type) {
    case 'UserRegistered':
      return { type: e.type, version: IdentityEvents.UserRegistered.version, data: snapshot(e.data) };
    case 'ProfileUpdated':
      return { type: e.type, version: IdentityEvents.ProfileUpdated.version, data: snapshot(e.data) };
    case 'ArchiveStatusChanged':
      // Consumers keep snapshots: an archive flag change is a profile update to them.
      return { type: 'ProfileUpdated', version: IdentityEvents.ProfileUpdated.version, data: snapshot(e.data) };
    case 'ProfileClaimed':
      // An approved claim (ADR 0034): to consumers the archive flag and the address changed — questions and payments
      // follow the flag (asking, tipping), the BFF evicts the cached page.
      return { type: 'ProfileUpdated', version: IdentityEvents.ProfileUpdated.version, data: snapshot(e.data) };
    case 'UsernameChanged':
      // A new public handle (issue 28): a snapshot with it — questions, payments and the BFF follow the username.
      return { type: 'ProfileUpdated', version: IdentityEvents.ProfileUpdated.version, data: snapshot(e.data) };
    case 'EmailVerified':
      // A snapshot with emailVerified: true; consumers (questions' recipients) read it as a profile update.
      return { type: 'ProfileUpdated', version: IdentityEvents.ProfileUpdated.version, data: snapshot(e.data) };
    case 'AvatarChanged':
      return { type: e.type, version: IdentityEvents.AvatarChanged.version, data: e.data };
    case 'UserDeleted':
      return { type: e.type, version: IdentityEvents.UserDeleted.version, data: e.data };
    case 'PasswordChanged':
      return { type: e.type, version: IdentityEvents.PasswordChanged.version, data: { userId: e.data.userId, changedAt: e.data.changedAt } };
    case 'OperatorGranted':
    case 'OperatorRevoked':
    case 'ArchiveSourcesChanged':
      // Private to identity: the role travels in the signed access token, never in a snapshot.
      return null;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
};
