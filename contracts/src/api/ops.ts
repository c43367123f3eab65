import { OPS_MESSAGES } from '../core/ops.js';
import { ZOperatorAuditPage, ZOperatorAuditQuery } from '../ops.js';
import { defineCall, type ServiceName } from './call.js';
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

/** The operator console's calls (issue 18). */
export const opsApi = {
  auditIdentity: auditCall('identity', 'opsAuditIdentity'),
  auditQuestions: auditCall('questions', 'opsAuditQuestions'),
};
