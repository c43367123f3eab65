import { claimsApi, claimsOpsApi } from '@ques/contracts';
import { idempotentId, metadataFrom, requireOperator, routeFor, type HttpApp } from '@ques/kit';
import { requireActiveUser } from '../sessions/active-user.js';
import type { Sessions } from '../sessions/sessions.js';
import type { ProfileClaims } from './claims.js';

/** Claim calls (`claimsApi`: a signed-in person) and the console's (`claimsOpsApi`: operators only, via routeFor). */
export function registerClaimRoutes(
  app: HttpApp,
  parts: { claims: ProfileClaims; sessions: Sessions },
): void {
  const { claims, sessions } = parts;

  routeFor(app, claimsApi.submit, async (request, reply) => {
    const who = await requireActiveUser(request, sessions);
    const claimId = idempotentId(request, 'profile-claim');
    return reply
      .status(201)
      .send(await claims.submit(who, claimId, request.body, metadataFrom(request, who.sub)));
  });

  routeFor(app, claimsApi.mine, async (request) => {
    const who = await requireActiveUser(request, sessions);
    return { claims: await claims.mine(who.sub) };
  });

  routeFor(app, claimsOpsApi.list, async (request) => {
    await requireOperator(request);
    return { claims: await claims.list(request.query.status) };
  });

  routeFor(app, claimsOpsApi.approve, async (request) => {
    const op = await requireOperator(request);
    const claim = await claims.approve(
      op,
      request.params.id,
      metadataFrom(request, op.sub),
      request.correlationId,
    );
    request.log.info({ claimId: claim.id, operator: op.username }, 'operator: profile claim approved');
    return claim;
  });

  routeFor(app, claimsOpsApi.reject, async (request) => {
    const op = await requireOperator(request);
    const claim = await claims.reject(
      op,
      request.params.id,
      request.body.reason,
      metadataFrom(request, op.sub),
    );
    request.log.info({ claimId: claim.id, operator: op.username }, 'operator: profile claim rejected');
    return claim;
  });
}
