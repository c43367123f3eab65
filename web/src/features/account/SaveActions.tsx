import { ErrorBanner } from '../../components/Banner';

/** A settings form's end: what went wrong, then its submit button, which says "Saving…" while the request runs. */
export function SaveActions({ error, saving, label }: { error: string; saving: boolean; label: string }) {
  return (
    <>
      <ErrorBanner>{error}</ErrorBanner>
      <div className="account__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : label}
        </button>
      </div>
    </>
  );
}
