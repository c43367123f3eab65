import { formatCents, type QuestionStatusPage, type StatusStep } from '@ques/contracts/core';
import { LocalTime } from './clock';

interface Item {
  key: string;
  label: string;
  /** When it happened; null: still to come. */
  at: string | null;
}

/** What each step that happened is called. */
function label(step: StatusStep, page: QuestionStatusPage, amount: string): string {
  const name = page.toName;
  switch (step) {
    case 'asked':
      return 'Asked';
    case 'held':
      return `${amount} held on your card`;
    case 'answered':
      return `Answered by ${name}`;
    case 'charged':
      return `${amount} charged`;
    case 'withdrawn':
      return 'Withdrawn';
    case 'deleted':
      return `Declined by ${name}`;
    case 'expired':
      return 'Not answered in time';
    case 'released':
      return 'Hold released — never charged';
  }
}

/** The steps still to come for a question in its current state (none once it is settled). */
function upcoming(page: QuestionStatusPage, amount: string, done: Set<StatusStep>): Item[] {
  const tip = page.tip;
  const name = page.toName;
  const next: Item[] = [];
  if (page.status === 'Pending') {
    next.push({ key: 'answered', label: `${name} answers`, at: null });
    if (tip) next.push({ key: 'charged', label: `${amount} charged only then`, at: null });
  }
  if (page.status === 'Answered' && tip?.state === 'charged' && !done.has('charged'))
    next.push({ key: 'charged', label: `${amount} being charged`, at: null });
  return next;
}

/**
 * The question's life as an order's (issue 28): asked → tip held → answered → charged, or withdrawn / declined /
 * unanswered → released. Each step that happened with its time in the viewer's zone; the ones to come greyed.
 */
export function Timeline({ page }: { page: QuestionStatusPage }) {
  const amount = page.tip ? formatCents(page.tip.amountCents, page.tip.currency) : '';
  const done = new Set(page.timeline.map((s) => s.step));
  const items: Item[] = [
    ...page.timeline.map((s) => ({ key: s.step, label: label(s.step, page, amount), at: s.at })),
    ...upcoming(page, amount, done),
  ];
  return (
    <ol className="status-timeline" aria-label="Timeline" data-testid="timeline">
      {items.map((item) => (
        <li key={item.key} className={item.at ? 'status-timeline__step is-done' : 'status-timeline__step'} data-step={item.key}>
          <span className="status-timeline__dot" aria-hidden="true" />
          <span className="status-timeline__label">
            {item.label}
            {item.at ? null : <span className="visually-hidden"> (to come)</span>}
          </span>
          {item.at ? (
            <span className="status-timeline__time">
              <LocalTime iso={item.at} />
            </span>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
