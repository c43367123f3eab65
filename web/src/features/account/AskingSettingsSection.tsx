import { useEffect, useId, useState, type FormEvent } from 'react';
import { ASKING_LIMITS, ASKING_MESSAGES, formatPausedUntil, type AskerBlock, type AskingSettings } from '@ques/contracts/core';
import { ErrorBanner, LoadingText } from '../../components/Banner';
import { Checkbox, InputField, TextAreaField } from '../../components/Field';
import { errorText } from '../../lib/api';
import { fetchAskingSettings, fetchBlocks, liftBlock, saveAskingSettings } from './asking-api';
import { SaveActions } from '../../components/SaveActions';
import { useToast } from '../../components/Toast';
import { useFieldErrors } from '../../components/use-field-errors';

export const ASKING_UI = {
  saved: 'Asking settings saved.',
  saveFailed: 'Could not save your asking settings. Please try again.',
  loadFailed: 'Could not load your asking settings.',
  lifted: (label: string) => `The block on ${label} was lifted.`,
  liftFailed: 'Could not lift the block. Please try again.',
  pickDate: 'Choose the date you take questions again.',
} as const;

/** The blocked words and phrases as sent: one per line, trimmed, no empty lines. */
const wordsOf = (text: string) =>
  text
    .split('\n')
    .map((w) => w.trim())
    .filter(Boolean);

const validCap = (cap: string) => cap === '' || (/^\d+$/.test(cap) && Number(cap) >= 1 && Number(cap) <= ASKING_LIMITS.capMax);

/** The card's rules with the API's own words (contracts' ASKING_MESSAGES), in the fields' order. */
function problems(form: Form | null) {
  if (!form) return {};
  const words = wordsOf(form.words);
  return {
    until: form.paused && !form.until ? ASKING_UI.pickDate : undefined,
    cap: validCap(form.cap.trim()) ? undefined : ASKING_MESSAGES.capInvalid,
    words:
      words.length > ASKING_LIMITS.filterEntries
        ? ASKING_MESSAGES.tooManyFilters
        : words.some((w) => w.length > ASKING_LIMITS.filterLength)
          ? ASKING_MESSAGES.filterTooLong
          : undefined,
  };
}

/** `YYYY-MM-DD` of an ISO time (UTC), for a date input. */
const dateOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

interface Form {
  paused: boolean;
  until: string;
  note: string;
  cap: string;
  words: string;
  builtIn: boolean;
  nudges: boolean;
}

const formOf = (s: AskingSettings): Form => ({
  paused: s.pausedUntil !== null,
  until: dateOf(s.pausedUntil),
  note: s.pauseNote,
  cap: s.pendingCap === null ? '' : String(s.pendingCap),
  words: s.blockedWords.join('\n'),
  builtIn: s.builtInFilter,
  nudges: s.nudges,
});

/**
 * Account Settings' "Asking" section (issue 16): pause the page until a date, cap open questions, blocked words and
 * phrases, the built-in list, reminder e-mails about held tips, and the blocked askers with "Lift block". Its own
 * component and card, apart from the profile and password forms.
 */
export function AskingSettingsSection() {
  const [form, setForm] = useState<Form | null>(null);
  const [blocks, setBlocks] = useState<AskerBlock[]>([]);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  // Each field's problem under it, all at once after a try, each gone when fixed (issue 28).
  const fields = useFieldErrors(() => problems(form));
  // A save and a lifted block say so in a toast (issue 28); their failures stay in the card.
  const toast = useToast();
  const blocksHeading = useId();

  useEffect(() => {
    const controller = new AbortController();
    Promise.all([fetchAskingSettings(controller.signal), fetchBlocks(controller.signal)])
      .then(([settings, list]) => {
        setForm(formOf(settings));
        setBlocks(list);
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setError(errorText(err, ASKING_UI.loadFailed, ASKING_UI.loadFailed));
      });
    return () => controller.abort();
  }, []);

  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((f) => (f ? { ...f, [key]: value } : f));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    setError('');
    if (!fields.attempt()) return;
    setSaving(true);
    try {
      const cap = form.cap.trim();
      const saved = await saveAskingSettings({
        pausedUntil: form.paused ? `${form.until}T00:00:00.000Z` : null,
        pauseNote: form.note,
        pendingCap: cap === '' ? null : Number(cap),
        blockedWords: wordsOf(form.words),
        builtInFilter: form.builtIn,
        nudges: form.nudges,
      });
      setForm(formOf(saved));
      fields.reset();
      toast(ASKING_UI.saved);
    } catch (err) {
      setError(errorText(err, ASKING_UI.saveFailed, ASKING_UI.saveFailed));
    } finally {
      setSaving(false);
    }
  };

  const lift = async (block: AskerBlock) => {
    try {
      await liftBlock(block.id);
      setBlocks((list) => list.filter((b) => b.id !== block.id));
      toast(ASKING_UI.lifted(block.label));
    } catch (err) {
      setError(errorText(err, ASKING_UI.liftFailed, ASKING_UI.liftFailed));
    }
  };

  return (
    <form
      className="panel account__card asking"
      noValidate
      aria-labelledby="asking-heading"
      onSubmit={(e) => void save(e)}
    >
      <h2 id="asking-heading" className="account__heading">
        Asking
      </h2>
      {!form ? (
        error ? (
          <ErrorBanner>{error}</ErrorBanner>
        ) : (
          <LoadingText>Loading asking settings…</LoadingText>
        )
      ) : (
        <>
          <Checkbox checked={form.paused} onChange={set('paused')}>
            Pause my page: not taking questions until a date
          </Checkbox>
          {form.paused ? (
            <>
              <InputField
                {...fields.field('until')}
                label="Not taking questions until"
                hint={
                  form.until
                    ? `Your page says: Not taking questions until ${formatPausedUntil(`${form.until}T00:00:00Z`)}.`
                    : undefined
                }
                type="date"
                value={form.until}
                onChange={set('until')}
              />
              <TextAreaField
                label="Note on your page"
                marker="optional"
                rows={2}
                maxLength={ASKING_LIMITS.note}
                value={form.note}
                onChange={set('note')}
              />
            </>
          ) : null}
          <InputField
            {...fields.field('cap')}
            label="Most open questions at once"
            marker="optional"
            hint="Leave empty for no limit. At the limit your page stops taking questions until you answer some."
            className="input asking__cap"
            // Text, not number: a number input hands over '' for what it cannot read, which would pass as "no cap".
            type="text"
            inputMode="numeric"
            value={form.cap}
            onChange={set('cap')}
          />
          <TextAreaField
            {...fields.field('words')}
            label="Blocked words and phrases"
            marker="optional"
            rows={4}
            hint={`One per line, up to ${ASKING_LIMITS.filterEntries}, ${ASKING_LIMITS.filterLength} characters each. Matched as whole words, ignoring case, accents, spacing and look-alike characters (b4dw0rd).`}
            value={form.words}
            onChange={set('words')}
          />
          <Checkbox checked={form.builtIn} onChange={set('builtIn')}>
            Also block Ques’ short built-in list of common slurs and abuse
          </Checkbox>
          <Checkbox checked={form.nudges} onChange={set('nudges')}>
            E-mail me reminders while a tip is held for me (after 24 hours, 72 hours and 4 days)
          </Checkbox>
          <SaveActions
            error={error}
            invalidCount={fields.count}
            saving={saving}
            label="Save asking settings"
            className="account__actions"
          />

          <h3 id={blocksHeading} className="asking__subheading">
            Blocked askers
          </h3>
          <p className="muted" data-testid="blocks-scope">
            A block stops the same account, the same e-mail address (also with a +tag, in any case, and for Gmail
            with or without dots) and the same browser. It cannot stop someone who signs up again, uses a different
            address or a different browser. Guests can send you at most {ASKING_LIMITS.guestAsksPerDevicePerDay}{' '}
            questions a day from one browser, one e-mail address or one network; signed-in askers are not limited.
          </p>
          {blocks.length === 0 ? (
            <p className="muted">
              You have not blocked anyone. Block an asker from the ⋯ menu of their question.
            </p>
          ) : (
            <ul className="asking__blocks" aria-labelledby={blocksHeading}>
              {blocks.map((b) => (
                <li key={b.id} className="asking__block">
                  <span>
                    <strong>{b.label}</strong>
                    <span className="muted">
                      {' '}
                      · blocked{' '}
                      {new Date(b.createdAt).toLocaleDateString('en-US', {
                        month: 'short',
                        day: 'numeric',
                        year: 'numeric',
                      })}{' '}
                      · by{' '}
                      {[b.byAccount && 'account', b.byEmail && 'e-mail', b.byDevice && 'browser']
                        .filter(Boolean)
                        .join(', ')}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    aria-label={`Lift block on ${b.label}`}
                    onClick={() => void lift(b)}
                  >
                    Lift block
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </form>
  );
}
