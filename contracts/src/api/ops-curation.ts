import { z } from 'zod';
import { OPS_MESSAGES } from '../core/ops.js';
import { CURATE_MESSAGES } from '../core/question-rules.js';
import { ZArchiveParams } from '../ops.js';
import { ZQuestion } from '../questions.js';
import { defineCall } from './call.js';
import { OPERATOR_ERRORS } from './ops.js';

/*
 * Issue 18: curated Q&A of an archive profile from the operator console (questions service). The same curate command
 * as an owner's "Curate a New Q&A", acting for the archive (nobody owns it); a source is required per answer. Every
 * call is refused (404) to anyone but an operator, and only touches archive profiles.
 */

const textField = (label: string) => z.string({ error: `${label} must be text` }).nullish();
const ZTags = z.array(z.string({ error: 'Tags must be a list of words' }), { error: 'Tags must be a list of words' }).nullish();

/** The curate form's fields (spec §2 curate modal), the source required; the rules run in the service. */
export const ZArchiveCurateRequest = z.object({
  question: textField('Question title'),
  detail: textField('Description'),
  answer: textField('Answer'),
  tags: ZTags,
  /** A link, a programme, a timestamp or a page: required on an archive. */
  source: textField('Source'),
  displayOnProfile: z.boolean({ error: 'displayOnProfile must be true or false' }).nullish(),
});
export type ArchiveCurateRequest = z.infer<typeof ZArchiveCurateRequest>;

export const ZArchiveCuratedEditRequest = z.object({
  answer: textField('Answer'),
  tags: ZTags,
  source: textField('Source'),
});

const ZCuratedParams = z.object({ id: z.uuid({ error: OPS_MESSAGES.noSuchCurated }) });

const ARCHIVE_ERRORS = {
  ...OPERATOR_ERRORS,
  404: [OPS_MESSAGES.notFound, OPS_MESSAGES.noSuchArchive],
  422: [OPS_MESSAGES.notAnArchive],
} as const;
const CURATED_ERRORS = {
  ...OPERATOR_ERRORS,
  404: [OPS_MESSAGES.notFound, OPS_MESSAGES.noSuchCurated],
  422: [OPS_MESSAGES.notAnArchive],
} as const;

export const curationOpsApi = {
  listCurated: defineCall({
    id: 'opsListArchiveCurated',
    method: 'GET',
    path: '/api/ops/archives/:id/curated',
    service: 'questions',
    summary: "Operators: an archive profile's curated Q&A (shown or not), newest first",
    auth: 'operator',
    errors: ARCHIVE_ERRORS,
    schema: { params: ZArchiveParams, response: { 200: z.array(ZQuestion) } },
  }),
  curate: defineCall({
    id: 'opsCurateArchive',
    method: 'POST',
    path: '/api/ops/archives/:id/curated',
    service: 'questions',
    summary: 'Operators: add a curated Q&A to an archive profile (title, optional detail, answer, tags, required source)',
    description: "The owner's curate command, for the archive; the question's id comes from the Idempotency-Key.",
    auth: 'operator',
    idempotent: true,
    errors: {
      ...ARCHIVE_ERRORS,
      400: [CURATE_MESSAGES.titleRequired, CURATE_MESSAGES.answerRequired, OPS_MESSAGES.sourceRequired],
    },
    schema: { params: ZArchiveParams, body: ZArchiveCurateRequest, response: { 201: ZQuestion } },
  }),
  editCurated: defineCall({
    id: 'opsEditArchiveCurated',
    method: 'PUT',
    path: '/api/ops/curated/:id',
    service: 'questions',
    summary: "Operators: edit an archive's curated answer, its tags and its source",
    auth: 'operator',
    errors: { ...CURATED_ERRORS, 400: [CURATE_MESSAGES.answerRequired, OPS_MESSAGES.sourceRequired] },
    schema: { params: ZCuratedParams, body: ZArchiveCuratedEditRequest, response: { 200: ZQuestion } },
  }),
  showCurated: defineCall({
    id: 'opsShowArchiveCurated',
    method: 'PATCH',
    path: '/api/ops/curated/:id',
    service: 'questions',
    summary: "Operators: show or hide an archive's curated Q&A on its public page",
    auth: 'operator',
    errors: CURATED_ERRORS,
    schema: {
      params: ZCuratedParams,
      body: z.strictObject({ displayOnProfile: z.boolean({ error: 'displayOnProfile must be true or false' }) }),
      response: { 200: ZQuestion },
    },
  }),
  deleteCurated: defineCall({
    id: 'opsDeleteArchiveCurated',
    method: 'DELETE',
    path: '/api/ops/curated/:id',
    service: 'questions',
    summary: "Operators: delete an archive's curated Q&A",
    auth: 'operator',
    errors: CURATED_ERRORS,
    schema: {
      params: ZCuratedParams,
      response: { 200: z.strictObject({ questionId: z.string(), deleted: z.literal(true) }) },
    },
  }),
} as const;
