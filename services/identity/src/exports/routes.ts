import { exportsApi } from '@ques/contracts';
import { routeFor, type HttpApp } from '@ques/kit';
import { requireActiveUser } from '../sessions/active-user.js';
import type { Sessions } from '../sessions/sessions.js';
import type { DataExports } from './data-exports.js';

/** The data export's calls (contracts/src/api/exports.ts): the caller's own exports only, by a live session. */
export function registerExportRoutes(app: HttpApp, parts: { exports: DataExports; sessions: Sessions }): void {
  const { exports, sessions } = parts;
  const me = async (request: Parameters<typeof requireActiveUser>[0]) => (await requireActiveUser(request, sessions)).sub;

  routeFor(app, exportsApi.requestExport, async (request, reply) => reply.status(202).send(await exports.request(await me(request))));

  routeFor(app, exportsApi.latestExport, async (request) => ({ export: await exports.latest(await me(request)) }));

  routeFor(app, exportsApi.getExport, async (request) => exports.get(await me(request), request.params.id));

  routeFor(app, exportsApi.downloadExport, async (request, reply) => {
    const { bytes, filename } = await exports.download(await me(request), request.params.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(bytes);
  });
}
