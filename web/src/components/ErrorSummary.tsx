/**
 * The form-level line over per-field errors (issue 28): it only counts them — each message is under its own field —
 * in a polite live region that stays in the DOM, so a screen reader hears the count change as fields are fixed.
 */
export function ErrorSummary({ count }: { count: number }) {
  return (
    <div role="status" aria-live="polite" className="error-summary">
      {count > 0 ? (
        <p className="error-summary__text">
          {count === 1 ? 'Please correct the highlighted field.' : `Please correct the ${count} highlighted fields.`}
        </p>
      ) : null}
    </div>
  );
}
