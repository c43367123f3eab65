import { questionsApi } from '@ques/contracts';
import { metadataFrom, requireUser, routeFor, type HttpApp } from '@ques/kit';
import type { QuestionActions } from '../questions/actions.js';
import type { StatusPages } from './status-pages.js';

/** What a status page's answers say to caches and crawlers: the link is the asker's alone (issue 33, ADR 0054). */
export const PRIVATE_PAGE_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' } as const;

/** The private status page's calls (issue 14): by token, no account; and the signed-in asker's way in. */
export function registerStatusRoutes(app: HttpApp, pages: StatusPages, actions: QuestionActions): void {
  routeFor(app, questionsApi.similarAnswers, async (request) =>
    actions.similarAnswers(request.params.username, request.query.q),
  );
  routeFor(app, questionsApi.statusPage, async (request, reply) => {
    void reply.headers(PRIVATE_PAGE_HEADERS);
    return pages.view(request.params.token);
  });
  routeFor(app, questionsApi.confirmStatusLink, async (request, reply) => {
    void reply.headers(PRIVATE_PAGE_HEADERS);
    return pages.confirm(request.params.token);
  });
  routeFor(app, questionsApi.withdrawByStatusLink, async (request, reply) => {
    void reply.headers(PRIVATE_PAGE_HEADERS);
    return pages.withdraw(request.params.token, metadataFrom(request, null));
  });
  routeFor(app, questionsApi.statusLink, async (request) => {
    const claims = await requireUser(request);
    return pages.linkForAsker(claims, request.params.id);
  });
}
