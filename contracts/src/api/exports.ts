import { z } from 'zod';
import { IDENTITY_MESSAGES as M } from '../core/identity.js';
import {
  EXPORT_MESSAGES as X,
  ZDataExport,
  ZExportIdParams,
  ZExportUserParams,
  ZLatestExport,
  ZPaymentsExport,
  ZQuestionsExport,
} from '../exports.js';
import { defineCall, defineInternalCall, type ServiceName } from './call.js';
import { AUTH_ERRORS } from './identity.js';
import { TOO_MANY } from './kit-messages.js';

/** The data export's browser calls (issue 15, docs/adr/0030): identity runs it; only the owner's session reads it. */
export const exportsApi = {
  requestExport: defineCall({
    id: 'requestDataExport',
    method: 'POST',
    path: '/api/users/exports',
    service: 'identity',
    summary: 'Start an export of everything that is yours (a ZIP of JSON and CSV), built in the background',
    description:
      'Answers 202 with the export (status `requested`, then `running`, `ready` or `failed`); an e-mail says when it is ' +
      'ready. While one is under way, asking again answers that one. The archive can be downloaded for 24 hours.',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS], 404: [M.userNotFound], 429: [TOO_MANY] },
    schema: { body: z.object({}).nullish(), response: { 202: ZDataExport } },
  }),
  latestExport: defineCall({
    id: 'getLatestDataExport',
    method: 'GET',
    path: '/api/users/exports',
    service: 'identity',
    summary: 'Your latest data export and its state (null when none)',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS] },
    schema: { response: { 200: ZLatestExport } },
  }),
  getExport: defineCall({
    id: 'getDataExport',
    method: 'GET',
    path: '/api/users/exports/:id',
    service: 'identity',
    summary: 'One of your data exports and its state',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS], 404: [X.notFound] },
    schema: { params: ZExportIdParams, response: { 200: ZDataExport } },
  }),
  downloadExport: defineCall({
    id: 'downloadDataExport',
    method: 'GET',
    path: '/api/users/exports/:id/download',
    service: 'identity',
    summary:
      'The ZIP of one of your ready data exports (application/zip; only your own session, within 24 hours)',
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS], 404: [X.notFound, X.expired], 409: [X.notReady] },
    schema: { params: ZExportIdParams, response: { 200: z.unknown().describe('application/zip bytes') } },
  }),
} as const;

/** One context's part of a person's export, read by identity (`GET /internal/exports/<service>/:userId`). */
const exportPartCall = <const S extends ServiceName, const R extends z.ZodType>(
  service: S,
  id: string,
  summary: string,
  part: R,
) =>
  defineInternalCall({
    id,
    method: 'GET',
    path: `/internal/exports/${service}/:userId`,
    service,
    summary,
    schema: { params: ZExportUserParams, response: { 200: part } },
  });

/** Identity reads the other contexts' parts of an export (internal network, `x-internal-token`; never the BFF). */
export const exportsInternalCalls = {
  questions: exportPartCall(
    'questions',
    'exportQuestionsOfUser',
    "A person's questions received, asked and curated, as they see them (data export)",
    ZQuestionsExport,
  ),
  payments: exportPartCall(
    'payments',
    'exportPaymentsOfUser',
    "A person's tips received (amount, fee, net) and paid (data export)",
    ZPaymentsExport,
  ),
} as const;
