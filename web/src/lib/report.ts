import type { ReportTarget } from '@ques/contracts/core';

/**
 * "Report" on public answers and profiles (issue 18): the page only dispatches this event; the app shell listens and
 * loads the report dialog (its own chunk) on the first click, so a page that is only read downloads none of it.
 */
export const REPORT_EVENT = 'ques:report';

export function openReport(target: ReportTarget): void {
  window.dispatchEvent(new CustomEvent<ReportTarget>(REPORT_EVENT, { detail: target }));
}
