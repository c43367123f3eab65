import { usePageHead } from '../../../lib/head';
import { useApiData } from '../../../lib/use-api-data';
import { fetchAudit } from '../api';
import { Loaded } from '../desk/parts';
import '../ops.css';
import '../desk/ops-desk.css';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

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
            <table className="ops-table">
              <caption className="visually-hidden">Operator actions</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Operator</th>
                  <th scope="col">Service</th>
                  <th scope="col">Action</th>
                  <th scope="col">What</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={`${entry.service}-${entry.id}`}>
                    <td className="ops-table__nowrap">
                      <time dateTime={entry.at}>{when(entry.at)}</time>
                    </td>
                    <td>
                      {entry.operatorUsername.startsWith('cli:') ||
                      entry.operatorUsername === 'OPERATOR_EMAILS'
                        ? entry.operatorUsername
                        : `@${entry.operatorUsername}`}
                    </td>
                    <td>{entry.service}</td>
                    <td>
                      <span className="ops-code">{entry.action}</span>
                    </td>
                    <td>{entry.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </section>
  );
}
