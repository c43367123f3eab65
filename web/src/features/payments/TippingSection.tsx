import { useId, useState } from 'react';
import { MAX_TIP_OPTIONS, PAYMENT_MESSAGES, PLATFORM_FEE_PERCENT, TIP_OPTION_VALUES, type TipOptionValue } from '@ques/contracts/core';
import { ErrorBanner } from '../../components/Banner';
import { Field } from '../../components/Field';
import { useToast } from '../../components/Toast';
import { ApiError } from '../../lib/api';
import { tippingSaved } from '../../lib/owner-calls';
import { useUnsavedGuard } from '../../lib/use-unsaved-guard';
import { saveTipOptions, saveTipping, type AccountStatus } from './api';
import { PAYOUTS_ANCHOR } from './PayoutsSection';
import {
  addTipOption,
  canAdd,
  changeTipOption,
  fromServer,
  removeTipOption,
  tippingBlockedBy,
  type EditableTipOption,
} from './tip-options';

/** A client error's own message (validation) is more useful than the generic text; server faults get the generic one. */
const messageFor = (err: unknown, generic: string) =>
  err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.serverMessage
    ? err.serverMessage
    : generic;

const sameValues = (a: readonly EditableTipOption[], b: readonly EditableTipOption[]) =>
  a.length === b.length && a.every((o, i) => o.value === b[i]?.value);

interface TippingSectionProps {
  userId: string;
  account: AccountStatus | null;
  initialOptions: EditableTipOption[];
  initialEnabled: boolean;
}

/**
 * Tipping (spec §4) after payouts (issue 28): the switch is off limits — with the reason and a link to the payouts
 * step — until the payout account is complete, and then saves the moment it is flipped. The tip amounts keep their
 * own Save, and leaving with amounts not saved asks first.
 */
export function TippingSection({ userId, account, initialOptions, initialEnabled }: TippingSectionProps) {
  const toast = useToast();
  const [enabled, setEnabled] = useState(initialEnabled);
  const [switchSaving, setSwitchSaving] = useState(false);
  const [switchError, setSwitchError] = useState('');
  const [saved, setSaved] = useState<readonly EditableTipOption[]>(initialOptions);
  const [options, setOptions] = useState<readonly EditableTipOption[]>(initialOptions);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState('');
  const reasonId = useId();
  const blocked = tippingBlockedBy(account);
  const dirty = !sameValues(options, saved);
  useUnsavedGuard(dirty);

  const toggle = async (on: boolean) => {
    setSwitchError('');
    setEnabled(on);
    setSwitchSaving(true);
    try {
      const result = await saveTipping(userId, on);
      const now = typeof result?.tippingEnabled === 'boolean' ? result.tippingEnabled : on;
      setEnabled(now);
      toast(tippingSaved(now));
    } catch (err) {
      setEnabled(!on);
      setSwitchError(messageFor(err, PAYMENT_MESSAGES.saveFailed));
    }
    setSwitchSaving(false);
  };

  const save = async () => {
    setSaveError('');
    setSaving(true);
    try {
      const result = await saveTipOptions(
        userId,
        options.map(({ id, value, removable }) => ({ id, value, removable })),
        enabled,
      );
      const next = Array.isArray(result?.tipOptions) ? fromServer(result.tipOptions) : [...options];
      setOptions(next);
      setSaved(next);
      toast(PAYMENT_MESSAGES.saved);
    } catch (err) {
      setSaveError(messageFor(err, PAYMENT_MESSAGES.saveFailed));
    }
    setSaving(false);
  };

  return (
    <section className="panel payment__card" aria-labelledby="tipping-heading">
      <div className="payment__card-head">
        <h2 id="tipping-heading" className="payment__heading">
          Tipping
        </h2>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            className="switch__input input-overlay"
            checked={enabled}
            disabled={(Boolean(blocked) && !enabled) || switchSaving}
            aria-describedby={blocked && !enabled ? reasonId : undefined}
            onChange={(e) => void toggle(e.target.checked)}
          />
          <span className="switch__track" aria-hidden="true">
            <span className="switch__thumb" />
          </span>
          <span className="switch__label">Enabling Tipping</span>
        </label>
      </div>
      {blocked && !enabled ? (
        <p className="tipping__reason" id={reasonId}>
          {blocked} <a href={`#${PAYOUTS_ANCHOR}`}>Connect payouts</a>
        </p>
      ) : null}
      <ErrorBanner>{switchError}</ErrorBanner>
      <p className="field__hint">
        With tipping on, people who ask you a question can add a tip. It is held on their card and only charged when
        you answer; unanswered questions are released after 5 days. Ques keeps {PLATFORM_FEE_PERCENT}%.
      </p>

      <fieldset className="tip-options">
        <legend className="field__label">Tip amounts</legend>
        <ol className="tip-options__list">
          {options.map((option, index) => (
            <TipOptionRow
              key={option.id}
              index={index}
              option={option}
              options={options}
              onChange={(value) => setOptions((o) => changeTipOption(o, option.id, value))}
              onRemove={() => setOptions((o) => removeTipOption(o, option.id))}
            />
          ))}
        </ol>
        <div className="tip-options__add">
          <button
            type="button"
            className="button button--ghost button--small"
            disabled={!canAdd(options)}
            onClick={() => setOptions((o) => addTipOption(o))}
          >
            Add tip option
          </button>
          <span className="field__hint">
            {options.length} of {MAX_TIP_OPTIONS} options
          </span>
        </div>
      </fieldset>
      <div className="payment__actions">
        <ErrorBanner>{saveError}</ErrorBanner>
        <button type="button" className="button button--primary" disabled={saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save tip amounts'}
        </button>
      </div>
    </section>
  );
}

interface TipOptionRowProps {
  index: number;
  option: EditableTipOption;
  options: readonly EditableTipOption[];
  onChange: (value: TipOptionValue) => void;
  onRemove: () => void;
}

function TipOptionRow({ index, option, options, onChange, onRemove }: TipOptionRowProps) {
  const label = `Tip amount Option ${index + 1}`;
  return (
    <Field as="li" className="tip-option" label={label}>
      {(field) => (
        <div className="tip-option__controls">
          <select
            {...field}
            className="input"
            value={option.value}
            // $0 is always offered (spec §3): its selector is fixed.
            disabled={!option.removable}
            onChange={(e) => onChange(e.target.value as TipOptionValue)}
          >
            {TIP_OPTION_VALUES.filter((v) => (option.removable ? v !== '$0' : v === '$0')).map((value) => (
              <option key={value} value={value} disabled={options.some((o) => o.id !== option.id && o.value === value)}>
                {value}
              </option>
            ))}
          </select>
          {option.removable ? (
            <button type="button" className="button button--ghost button--small" aria-label={`Remove ${label}`} onClick={onRemove}>
              Remove
            </button>
          ) : (
            <span className="tip-option__fixed">Always offered</span>
          )}
        </div>
      )}
    </Field>
  );
}
