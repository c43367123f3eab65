import { opsApi } from '@ques/contracts';
import { metadataFrom, registerOperatorAuditRoute, requireOperator, routeFor, type HttpApp } from '@ques/kit';
import type { Kysely } from 'kysely';
import type { IdentityDB } from '../db/schema.js';
import { readAvatarUpload } from '../users/avatar-upload.js';
import type { ArchiveConsole } from './archives.js';

/** Identity's operator calls (`opsApi`): every one guarded by requireOperator (routeFor adds it from `auth`). */
export function registerOperatorRoutes(app: HttpApp, parts: { db: Kysely<IdentityDB>; archives: ArchiveConsole }): void {
  const { archives } = parts;
  registerOperatorAuditRoute(app, parts.db, opsApi.auditIdentity);
  routeFor(app, opsApi.listArchives, async () => ({ archives: await archives.list() }));
  routeFor(app, opsApi.createArchive, async (request, reply) => {
    const op = await requireOperator(request);
    return reply.status(201).send(await archives.create(op, request.body, metadataFrom(request, op.sub)));
  });
  routeFor(app, opsApi.updateArchive, async (request) => {
    const op = await requireOperator(request);
    return archives.update(op, request.params.id, request.body, metadataFrom(request, op.sub));
  });
  // Multipart like the owner's upload (the plugin is registered with identity's routes): 2 MB, one file `avatar`.
  routeFor(app, opsApi.archiveAvatar, async (request) => {
    const op = await requireOperator(request);
    const upload = await readAvatarUpload(request);
    return archives.changeAvatar(op, request.params.id, upload, metadataFrom(request, op.sub));
  });
  routeFor(app, opsApi.markArchive, async (request) => {
    const op = await requireOperator(request);
    return archives.mark(op, request.params.id, request.body.archive, metadataFrom(request, op.sub));
  });
}
