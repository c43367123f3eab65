import { pollUntil } from '../util.js';
import { summary, type BffClient } from './client.js';

export interface Account {
  id: string;
  username: string;
  name: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
}

export interface Cast {
  /** Owners with a connected test-mode payout account and tipping on: they receive and answer questions. */
  owners: Account[];
  /** Signed-in askers (guests need no account). */
  askers: Account[];
}

const PASSWORD = 'chaos monkey battery staple';

async function signup(client: BffClient, name: string, email: string): Promise<Account> {
  const res = await client.reliably('POST', '/api/users', {
    json: { name, email, password: PASSWORD },
    deadline: Date.now() + 30_000,
  });
  if (!res.ok || res.reply.status !== 201)
    throw new Error(
      `signup of ${email} failed: ${res.ok ? `${res.reply.status} ${summary(res.reply.body)}` : res.last}`,
    );
  const body = res.reply.body;
  return {
    id: body.user.id,
    username: body.user.username,
    name,
    email,
    password: PASSWORD,
    token: body.token,
    refreshToken: body.refreshToken,
  };
}

/** Connects a test-mode payout account, completes onboarding and switches tipping on, as an owner does in the app. */
async function enableTips(client: BffClient, owner: Account): Promise<void> {
  // Payments learns about the account from identity's event: connecting works once it has arrived.
  const connected = await pollUntil(
    async () => {
      const res = await client.send('POST', '/api/payments/connect', {
        json: { country: 'CA' },
        token: owner.token,
      });
      return res.status === 200 ? (res.body as { url: string }) : null;
    },
    {
      timeoutMs: 30_000,
      signal: client.signal,
      intervalMs: 200,
      message: () => `payments never let ${owner.username} connect a payout account`,
    },
  );
  const completed = await client.send('POST', `${connected.url}/complete`, { form: '' });
  if (completed.status !== 303)
    throw new Error(`test-mode onboarding of ${owner.username} answered ${completed.status}`);
  await pollUntil(
    async () => {
      const status = await client.send('GET', '/api/payments/account-status', { token: owner.token });
      return status.body?.stripeAccountStatus === 'completed';
    },
    {
      timeoutMs: 30_000,
      signal: client.signal,
      intervalMs: 200,
      message: () => `${owner.username}'s payout account never became completed`,
    },
  );
  const saved = await client.send('PUT', '/api/payments/tipOptions', {
    json: {
      tipOptions: [{ value: '$0' }, { value: '$5' }, { value: '$25' }, { value: 'Custom' }],
      tippingEnabled: true,
    },
    token: owner.token,
  });
  if (saved.status !== 200)
    throw new Error(
      `saving tip options of ${owner.username} answered ${saved.status} ${summary(saved.body)}`,
    );
}

/** Signs the cast up through the BFF and waits until questions and payments know every owner. */
export async function createCast(
  client: BffClient,
  tag: string,
  sizes: { owners: number; askers: number },
): Promise<Cast> {
  const owners = await Promise.all(
    Array.from({ length: sizes.owners }, (_, i) =>
      signup(client, `Owner ${i + 1}`, `owner${i + 1}.${tag}@chaos.example`),
    ),
  );
  const askers = await Promise.all(
    Array.from({ length: sizes.askers }, (_, i) =>
      signup(client, `Asker ${i + 1}`, `asker${i + 1}.${tag}@chaos.example`),
    ),
  );
  await Promise.all(owners.map((owner) => enableTips(client, owner)));
  // Questions learns about owners from identity's events: asking works once they have arrived. The probe questions
  // are marked `setup`, outside every phase's figures.
  await Promise.all(
    owners.map((owner, i) =>
      pollUntil(
        async () => {
          const res = await client.send('POST', '/api/questions', {
            json: guestAsk(owner, `Chaos [${tag}/setup/${i}] is anyone there?`, `probe.${tag}@chaos.example`),
          });
          return res.status === 201;
        },
        {
          timeoutMs: 30_000,
          signal: client.signal,
          intervalMs: 200,
          message: () => `questions never accepted a question to ${owner.username}`,
        },
      ),
    ),
  );
  return { owners, askers };
}

/**
 * Fresh access tokens before each phase (they live 15 minutes; a long run outlasts that). Rotates the refresh token;
 * signs in again if the refresh fails.
 */
export async function refreshCast(client: BffClient, cast: Cast): Promise<void> {
  await Promise.all(
    [...cast.owners, ...cast.askers].map(async (account) => {
      const deadline = Date.now() + 30_000;
      const refreshed = await client.reliably('POST', '/api/users/refresh-token', {
        json: { refreshToken: account.refreshToken },
        deadline,
      });
      if (refreshed.ok && refreshed.reply.status === 200) {
        account.token = refreshed.reply.body.accessToken;
        account.refreshToken = refreshed.reply.body.refreshToken;
        return;
      }
      const login = await client.reliably('POST', '/api/users/login', {
        json: { email: account.email, password: account.password },
        deadline,
      });
      if (!login.ok || login.reply.status !== 200)
        throw new Error(
          `could not sign ${account.email} in again: ${login.ok ? login.reply.status : login.last}`,
        );
      account.token = login.reply.body.accessToken;
      account.refreshToken = login.reply.body.refreshToken;
    }),
  );
}

/** A guest's free question, the body the web app's ask form posts. */
export function guestAsk(owner: Account, question: string, email: string) {
  return {
    question,
    detail: '',
    tip: 0,
    isCurated: false,
    toUsername: owner.username,
    recipientName: owner.name,
    toUserId: owner.id,
    fromUsername: 'guest',
    askedName: 'Gus Guest',
    askedEmail: email,
    yourName: 'Gus Guest',
    yourEmail: email,
    agreedToTerms: true,
  };
}
