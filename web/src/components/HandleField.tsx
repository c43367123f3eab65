import { HANDLE_MAX } from '@ques/contracts/core';
import { Field } from './Field';
import { siteOrigin } from '../lib/head';
import type { HandleCheck } from './use-handle-check';
import './handle.css';

/** The host shown before the handle ("ques.app/ask/"), without the scheme. */
const linkPrefix = () => `${siteOrigin().replace(/^https?:\/\//, '')}/ask/`;

/**
 * The public link's field (issue 28): the address shown as it will read, the live check under it — a tick and
 * "available", "Checking…", or the reason it cannot be had (as the field's error) — and `error`, a problem of the
 * form's own (the server's answer on submit), which wins.
 */
export function HandleField({
  label = 'Your link',
  value,
  onChange,
  check,
  error,
  hint,
  id,
}: {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  check: HandleCheck;
  error?: string;
  hint?: string;
  id?: string;
}) {
  const refused = check.state === 'refused' ? check.reason : '';
  const shownError = error || refused;
  const status =
    shownError ? '' : check.state === 'available' ? 'available' : check.state === 'checking' ? 'Checking…' : '';
  return (
    <Field
      label={label}
      {...(id ? { id } : {})}
      error={shownError || undefined}
      hint={
        <>
          {hint ? <span>{hint} </span> : null}
          {/* Polite: the tick is announced when typing pauses, not on every key. */}
          <span className={`handle-status handle-status--${status === 'available' ? 'ok' : 'pending'}`} aria-live="polite">
            {status === 'available' ? (
              <>
                <span aria-hidden="true">✓ </span>
                {`${linkPrefix()}${check.state === 'available' ? check.handle : ''} is available`}
              </>
            ) : (
              status
            )}
          </span>
        </>
      }
    >
      {(field) => (
        <div className="handle-input">
          <span className="handle-input__prefix" aria-hidden="true">
            {linkPrefix()}
          </span>
          <input
            {...field}
            className="input handle-input__control"
            type="text"
            inputMode="url"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            autoComplete="off"
            maxLength={HANDLE_MAX + 30}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
      )}
    </Field>
  );
}
