import { eventually } from '@ques/kit/testing';
import { call } from './identity-journey.js';

/** What a browser does on the test-mode pages: an empty form post, answered with a redirect. */
async function press(base: string, url: string): Promise<number> {
  const res = await fetch(new URL(url, base), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
  return res.status;
}

const until = (fn: () => Promise<unknown>, want: unknown) => eventually(async () => (await fn()) === want, 20_000);

/**
 * On the embedded default with test-mode payments: the owner onboards and takes $5 tips, a guest tips $5 on
 * `question`, the owner answers with `answer`, and the tip is captured ($5.00, fee $0.50, net $4.50). Returns the id.
 */
export async function seedTippedAnswer(
  base: string,
  owner: { id: string; username: string; token: string },
  question: string,
  answer: string,
): Promise<string> {
  const connected = await call(base, 'POST', '/api/payments/connect', { country: 'CA' }, owner.token);
  if (connected.status !== 200) throw new Error(`connect: ${connected.status} ${connected.text}`);
  await press(base, `${connected.body.url}/complete`);
  await until(async () => (await call(base, 'GET', '/api/payments/account-status', undefined, owner.token)).body.stripeAccountStatus, 'completed');
  const saved = await call(base, 'PUT', '/api/payments/tipOptions', { tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: true }, owner.token);
  if (saved.status !== 200) throw new Error(`tip options: ${saved.status} ${saved.text}`);
  const checkout = await call(base, 'POST', '/api/checkout/create-checkout-session', {
    donationAmount: 5,
    userId: 'guest',
    questionData: { question, toUserId: owner.id, toUsername: owner.username, askedName: 'Gil Guest', askedEmail: 'gil@example.com', agreedToTerms: true, tip: 5 },
  });
  if (checkout.status !== 200) throw new Error(`checkout: ${checkout.status} ${checkout.text}`);
  const id = checkout.body.questionId as string;
  await press(base, `${checkout.body.url}/pay`);
  const tipStatus = async () =>
    ((await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token)).body as { _id: string; tipStatus: string }[]).find((q) => q._id === id)?.tipStatus;
  await until(tipStatus, 'held');
  const answered = await call(base, 'PUT', `/api/questions/${id}/answer`, { answer }, owner.token);
  if (answered.status !== 200) throw new Error(`answer: ${answered.status} ${answered.text}`);
  await until(tipStatus, 'captured');
  return id;
}
