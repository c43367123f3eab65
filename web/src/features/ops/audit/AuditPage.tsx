import type { OperatorAuditEntry } from '@ques/contracts/core';
import { DataTable, type Column } from '../../../components/DataTable';
import { usePageHead } from '../../../lib/head';
import { useApiData } from '../../../lib/use-api-data';
import { fetchAudit } from '../api';
import { Loaded } from '../desk/parts';
import '../ops.css';
import '../desk/ops-desk.css';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Who acted: an operator's @username, or the CLI / OPERATOR_EMAILS as themselves. */
const actor = (name: string) => (name.startsWith('cli:') || name === 'OPERATOR_EMAILS' ? name : `@${name}`);

const AUDIT_COLUMNS: Column<OperatorAuditEntry>[] = [
  {
    header: 'When',
    cellClassName: 'ops-table__nowrap',
    cell: (entry) => <time dateTime={entry.at}>{when(entry.at)}</time>,
  },
  { header: 'Operator', cell: (entry) => actor(entry.operatorUsername) },
  { header: 'Service', cell: (entry) => entry.service },
  { header: 'Action', cell: (entry) => <span className="ops-code">{entry.action}</span> },
  { header: 'What', cell: (entry) => entry.summary },
];

/** The console's landing page: every operator action recorded by the services, newest first (who, what, when). */
export default function AuditPage() {
  usePageHead('Audit log — Ques operators', 'Every operator action, newest first.', '/ops');
  const audit = useApiData((signal) => fetchAudit(signal), []);
  return (
    <section className="admin-page" aria-labelledby="ops-audit-title">
      <h1 className="admin-page__title" id="ops-audit-title">
        Audit log
      </h1>
      <p className="muted">Every operator action of every service, newest first: who did what, and when.</p>
      <Loaded
        data={audit}
        what="the audit log"
        isEmpty={(l) => l.length === 0}
        empty="No operator action yet."
      >
        {(entries) => (
          <div className="ops-table__wrap">
            <DataTable
              className="ops-table"
              caption="Operator actions"
              columns={AUDIT_COLUMNS}
              rows={entries}
              rowKey={(entry) => `${entry.service}-${entry.id}`}
            />
          </div>
        )}
      </Loaded>
    </section>
  );
}
