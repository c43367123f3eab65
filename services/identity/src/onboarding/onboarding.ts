import {
  onboardingApi,
  onboardingInternalCalls,
  ZOnboardingPaymentsFacts,
  ZOnboardingQuestionsFacts,
  type OnboardingChecklist,
  type OnboardingMark,
  type OnboardingPaymentsFacts,
  type OnboardingQuestionsFacts,
} from '@ques/contracts';
import { CommandHandler, internalCallHeaders, metadataFrom, notFound, routeFor, type Clock, type EventMetadata, type EventStore, type HttpApp, type Logger } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { requireActiveUser } from '../sessions/active-user.js';
import type { Sessions } from '../sessions/sessions.js';
import type { UsersReadModel } from '../users/read-models/users.js';
import { checklistOf, onboardingDecider, onboardingStreamId } from './domain.js';

/** The other contexts' facts for the checklist. */
export interface OnboardingSources {
  payments(userId: string): Promise<OnboardingPaymentsFacts>;
  questions(userId: string): Promise<OnboardingQuestionsFacts>;
}

/** Over their internal calls (internal network; `x-internal-token`, ADR 0060), as the data export reads them. */
export function httpOnboardingSources(opts: { questionsUrl: string; paymentsUrl: string; internalToken: string }): OnboardingSources {
  const get = async (base: string, template: string, userId: string) => {
    const headers = { accept: 'application/json', ...internalCallHeaders(opts.internalToken) };
    const path = template.replace(':userId', encodeURIComponent(userId));
    // Short: the checklist is read on every sign-in of an owner not yet set up.
    const res = await fetch(new URL(path, base), { headers, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
    return res.json();
  };
  return {
    payments: async (userId) => ZOnboardingPaymentsFacts.parse(await get(opts.paymentsUrl, onboardingInternalCalls.payments.path, userId)),
    questions: async (userId) => ZOnboardingQuestionsFacts.parse(await get(opts.questionsUrl, onboardingInternalCalls.questions.path, userId)),
  };
}

export interface OnboardingDeps {
  store: EventStore<IdentityDB>;
  users: UsersReadModel;
  sources: OnboardingSources;
  clock: Clock;
  log: Logger;
}

/** The set-up checklist (issue 28, docs/adr/0056): computed on each read, its two marks kept as events. */
export class Onboarding {
  private readonly commands;

  constructor(private readonly deps: OnboardingDeps) {
    this.commands = new CommandHandler(deps.store, { decider: onboardingDecider, streamId: onboardingStreamId });
  }

  async checklist(userId: string): Promise<OnboardingChecklist> {
    const { users, sources, log } = this.deps;
    // A context that does not answer leaves its steps open (the page says what to do) rather than failing the page.
    const orOpen = <T>(what: string, fallback: T) => (err: unknown) => {
      log.warn({ err, userId }, `onboarding: ${what} facts unavailable; those steps show as open`);
      return fallback;
    };
    const [row, marks, payments, questions] = await Promise.all([
      users.byId(userId),
      this.commands.load(userId),
      sources.payments(userId).catch(orOpen('payments', { payoutsConnected: false, tippingEnabled: false })),
      sources.questions(userId).catch(orOpen('questions', { publicAnswer: false })),
    ]);
    if (!row) throw notFound('User not found');
    const profile = {
      username: row.username,
      avatarUrl: row.avatar_url,
      bio: row.bio,
      brandColorMain: row.brand_color_main,
      brandColorLight: row.brand_color_light,
    };
    return checklistOf(profile, payments, questions, marks.state);
  }

  async mark(userId: string, mark: OnboardingMark, metadata: EventMetadata): Promise<OnboardingChecklist> {
    await this.commands.handle(userId, { type: 'MarkOnboarding', data: { userId, mark, now: this.deps.clock() } }, metadata);
    return this.checklist(userId);
  }
}

export function registerOnboardingRoutes(app: HttpApp, deps: { onboarding: Onboarding; sessions: Sessions }): void {
  routeFor(app, onboardingApi.getChecklist, async (request) => {
    const claims = await requireActiveUser(request, deps.sessions);
    return deps.onboarding.checklist(claims.sub);
  });
  routeFor(app, onboardingApi.mark, async (request) => {
    const claims = await requireActiveUser(request, deps.sessions);
    return deps.onboarding.mark(claims.sub, request.body.mark, metadataFrom(request, claims.sub));
  });
}
