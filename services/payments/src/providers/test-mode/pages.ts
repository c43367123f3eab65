import type { FastifyReply } from 'fastify';
import { feeBreakdownText, paymentsBrowserCalls as calls } from '@ques/contracts';
import { routeFor, type HttpApp } from '@ques/kit';
import { TEST_MODE_PAGES, type TestModeProvider } from './test-mode-provider.js';

/**
 * The test mode's hosted pages, standing in for Stripe Checkout and Stripe's Connect onboarding. Plain HTML forms (no
 * script: the BFF's CSP allows none inline), served by payments under `/pay/test/*`, which the BFF routes here.
 */

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#FAF6F2;color:#1A140F;display:flex;flex-direction:column;align-items:center}
  .banner{width:100%;background:#FFD84D;color:#1A140F;text-align:center;font-weight:700;letter-spacing:.04em;padding:10px 16px;font-size:14px;border-bottom:2px solid #1A140F}
  main{width:100%;max-width:440px;padding:40px 20px}
  .card{background:#fff;border:1px solid #E7DED4;border-radius:14px;padding:28px;box-shadow:0 10px 30px rgba(26,20,15,.08)}
  .brand{font-weight:800;font-size:20px;margin:0 0 18px}
  .label{color:#6B5E52;font-size:14px;margin:0}
  .amount{font-size:44px;font-weight:800;margin:4px 0 2px}
  .to{font-size:16px;margin:0 0 18px}
  ul{padding-left:18px;color:#4A3F35;font-size:14px;line-height:1.5;margin:0 0 22px}
  .actions{display:flex;gap:10px}
  form{flex:1;margin:0}
  button{width:100%;font:inherit;font-weight:700;font-size:16px;border-radius:10px;padding:12px 14px;cursor:pointer;border:2px solid #1A140F}
  .primary{background:#1A140F;color:#FAF6F2}
  .secondary{background:#fff;color:#1A140F}
  .status{font-size:22px;font-weight:800;margin:0 0 8px}
  a.back{display:inline-block;margin-top:16px;color:#1A140F;font-weight:700}
  .fine{color:#6B5E52;font-size:12px;margin-top:18px;text-align:center}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)} · TEST MODE</title><style>${STYLE}</style></head>
<body><div class="banner" role="status">TEST MODE — no real money. This page stands in for the card provider.</div>
<main><div class="card"><p class="brand">Ques</p>${body}</div>
<p class="fine">Local test-mode payment provider: no card is charged and no money moves.</p></main></body></html>`;
}

function html(reply: FastifyReply, status: number, content: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(content);
}

const notFoundPage = () =>
  page(
    'Not found',
    `<p class="status">Not found</p><p class="label">This test-mode page does not exist.</p>`,
  );

export async function registerTestModePages(app: HttpApp, provider: TestModeProvider): Promise<void> {
  await app.register(async (scope) => {
    // The pages' forms post nothing but the button; accept what browsers send and ignore it.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, _body, done) => done(null, {}),
    );

    routeFor(scope, calls.testCheckoutPage, async (request, reply) => {
      const { id } = request.params;
      const session = await provider.session(id);
      if (!session) return html(reply, 404, notFoundPage());
      const snapshot = await provider.retrieveCheckout(id);
      const amount = money(session.amount, session.currency);
      const to = escape(session.recipient_name);
      if (snapshot.status === 'complete') {
        const back = session.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(id));
        return html(
          reply,
          200,
          page(
            'Payment authorized',
            `<p class="status">Payment authorized</p><p class="label">${amount} is held for ${to} until they answer.</p><a class="back" href="${escape(back)}">Back to Ques</a>`,
          ),
        );
      }
      if (snapshot.status === 'expired') {
        return html(
          reply,
          200,
          page(
            'Checkout closed',
            `<p class="status">This checkout is closed</p><p class="label">It was cancelled or expired. Nothing was charged.</p><a class="back" href="${escape(session.cancel_url)}">Back to Ques</a>`,
          ),
        );
      }
      return html(
        reply,
        200,
        page(
          `Tip ${amount} for ${session.recipient_name}`,
          `<p class="label">Tip for</p><p class="to"><strong>${to}</strong></p>
<p class="label">Amount</p><p class="amount">${amount}</p><p class="label">${escape(session.currency.toUpperCase())}</p>
<p class="label" style="margin-top:18px" data-testid="fee-breakdown">${escape(feeBreakdownText(session.recipient_name, session.amount, session.currency))}</p>
<ul><li>Released, never charged, if it is withdrawn, deleted or not answered within 5 days.</li></ul>
<div class="actions">
<form method="post" action="${TEST_MODE_PAGES}/checkout/${escape(id)}/pay"><button class="primary" type="submit">Pay ${amount}</button></form>
<form method="post" action="${TEST_MODE_PAGES}/checkout/${escape(id)}/cancel"><button class="secondary" type="submit">Cancel</button></form>
</div>`,
        ),
      );
    });

    routeFor(scope, calls.testCheckoutPay, async (request, reply) => {
      const { id } = request.params;
      const result = await provider.pay(id);
      if (!result) return html(reply, 404, notFoundPage());
      request.log.info({ sessionId: id, status: result.status }, 'test-mode checkout paid');
      return reply.redirect(result.redirect, 303);
    });

    routeFor(scope, calls.testCheckoutCancel, async (request, reply) => {
      const { id } = request.params;
      const result = await provider.cancelCheckout(id);
      if (!result) return html(reply, 404, notFoundPage());
      request.log.info({ sessionId: id, status: result.status }, 'test-mode checkout cancelled');
      return reply.redirect(result.redirect, 303);
    });

    routeFor(scope, calls.testOnboardingPage, async (request, reply) => {
      const { accountId } = request.params;
      const account = await provider.account(accountId);
      if (!account) return html(reply, 404, notFoundPage());
      const done = account.charges_enabled && account.payouts_enabled && account.details_submitted;
      return html(
        reply,
        200,
        page(
          'Payout onboarding',
          `<p class="status">Payout account onboarding</p>
<p class="label">Account ${escape(account.id)} · ${escape(account.country)}</p>
<ul style="margin-top:18px"><li>In test mode there is nothing to fill in: completing onboarding lets this account receive tips.</li>
<li>With Stripe, this is where the owner gives their identity and bank details.</li></ul>
${done ? '<p class="label"><strong>Onboarding is complete.</strong></p>' : ''}
<div class="actions"><form method="post" action="${TEST_MODE_PAGES}/onboarding/${escape(accountId)}/complete"><button class="primary" type="submit">${done ? 'Back to Ques' : 'Complete onboarding'}</button></form></div>`,
        ),
      );
    });

    routeFor(scope, calls.testOnboardingComplete, async (request, reply) => {
      const { accountId } = request.params;
      const account = await provider.account(accountId);
      if (!account) return html(reply, 404, notFoundPage());
      const returnUrl = await provider.completeOnboarding(accountId);
      request.log.info({ accountId }, 'test-mode onboarding completed');
      return reply.redirect(returnUrl ?? '/', 303);
    });
  });
}
