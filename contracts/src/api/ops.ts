import { z } from 'zod';
import { IDENTITY_MESSAGES } from '../core/identity.js';
import { OPS_MESSAGES } from '../core/ops.js';
import {
  ZArchiveList,
  ZArchiveParams,
  ZArchiveProfile,
  ZCreateArchiveRequest,
  ZMarkArchiveRequest,
  ZOperatorAuditPage,
  ZOperatorAuditQuery,
  ZUpdateArchiveRequest,
} from '../ops.js';
import { defineCall, type ApiCall, type CallSchema, type ServiceName } from './call.js';
import { BAD_TOKEN } from './kit-messages.js';

/**
 * Every operator call answers 404 to anyone who is not an operator (a guest, an owner), the same as for a path that
 * does not exist: `auth: 'operator'` makes the BFF refuse before forwarding, and the service checks again with the
 * kit's `requireOperator` (issue 18, ADR 0031).
 */
export const OPERATOR_ERRORS = { 401: [BAD_TOKEN], 404: [OPS_MESSAGES.notFound] } as const;

/** The audit list of one service's operator actions (`GET /api/ops/audit/<service>`). */
const auditCall = <const S extends ServiceName>(service: S, id: string) =>
  defineCall({
    id,
    method: 'GET',
    path: `/api/ops/audit/${service}`,
    service,
    summary: `Operators: the latest operator actions recorded by ${service} (who, what, when)`,
    auth: 'operator',
    errors: OPERATOR_ERRORS,
    schema: { querystring: ZOperatorAuditQuery, response: { 200: ZOperatorAuditPage } },
  });

/** 404 for a path that does not exist (not an operator) or an id that is no archive profile. */
const ARCHIVE_ERRORS = {
  ...OPERATOR_ERRORS,
  404: [OPS_MESSAGES.notFound, OPS_MESSAGES.noSuchArchive],
} as const;

/**
 * An operator's change to one archive profile (`/api/ops/archives/:id…`): identity answers with the profile as it is
 * now, or 404 as `ARCHIVE_ERRORS` says.
 */
const archiveCall = <const S extends Pick<CallSchema, 'body'>>(
  call: Omit<ApiCall, 'service' | 'auth' | 'schema'> & { schema: S },
) =>
  defineCall({
    ...call,
    service: 'identity',
    auth: 'operator',
    errors: { ...ARCHIVE_ERRORS, ...call.errors },
    schema: { params: ZArchiveParams, ...call.schema, response: { 200: ZArchiveProfile } },
  });

/** The operator console's calls (issue 18). */
export const opsApi = {
  auditIdentity: auditCall('identity', 'opsAuditIdentity'),
  auditQuestions: auditCall('questions', 'opsAuditQuestions'),
  auditSupport: auditCall('support', 'opsAuditSupport'),
  auditPayments: auditCall('payments', 'opsAuditPayments'),
  listArchives: defineCall({
    id: 'opsListArchives',
    method: 'GET',
    path: '/api/ops/archives',
    service: 'identity',
    summary: 'Operators: every archive profile (and profiles that were one)',
    auth: 'operator',
    errors: OPERATOR_ERRORS,
    schema: { response: { 200: ZArchiveList } },
  }),
  createArchive: defineCall({
    id: 'opsCreateArchive',
    method: 'POST',
    path: '/api/ops/archives',
    service: 'identity',
    summary: 'Operators: create a non-affiliated archive profile (name, username, bio, sources note)',
    description: 'The profile cannot be asked or tipped; nobody can sign in to it until a claim is approved.',
    auth: 'operator',
    errors: { ...OPERATOR_ERRORS, 400: ['Name is required', IDENTITY_MESSAGES.nameControl], 409: [OPS_MESSAGES.usernameTaken] },
    schema: { body: ZCreateArchiveRequest, response: { 201: ZArchiveProfile } },
  }),
  updateArchive: archiveCall({
    id: 'opsUpdateArchive',
    method: 'PUT',
    path: '/api/ops/archives/:id',
    summary: "Operators: edit an archive profile's name, bio or sources note",
    errors: { 400: [IDENTITY_MESSAGES.nameControl] },
    schema: { body: ZUpdateArchiveRequest },
  }),
  archiveAvatar: archiveCall({
    id: 'opsArchiveAvatar',
    method: 'POST',
    path: '/api/ops/archives/:id/avatar',
    summary:
      "Operators: upload an archive profile's avatar (multipart/form-data, one file field `avatar`, under 2 MB)",
    description: "Processed as an owner's upload: re-encoded to square WebP images without metadata.",
    bodyKind: 'multipart',
    errors: {
      400: [IDENTITY_MESSAGES.chooseImage, IDENTITY_MESSAGES.badUpload],
      413: [IDENTITY_MESSAGES.avatarTooLarge, IDENTITY_MESSAGES.tooManyPixels],
      415: [IDENTITY_MESSAGES.notAnImage, IDENTITY_MESSAGES.unreadableImage],
    },
    // The file is streamed to the handler, never parsed into the body: the schema only documents the form's field.
    schema: { body: z.object({ avatar: z.string().meta({ format: 'binary' }) }).nullish() },
  }),
  markArchive: archiveCall({
    id: 'opsMarkArchive',
    method: 'POST',
    path: '/api/ops/archives/:id/mark',
    summary: 'Operators: mark (archive: true) or unmark a profile as a non-affiliated archive',
    description: 'Only a profile created as an archive, never signed in to and never claimed, can be marked (ADR 0054).',
    errors: { 409: [OPS_MESSAGES.realAccount] },
    schema: { body: ZMarkArchiveRequest },
  }),
};
