import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN, LIMITS, PAYMENT_MESSAGES, type User } from '@ques/contracts/core';
import { AvatarPicker } from '../../components/AvatarPicker';
import { ErrorBanner } from '../../components/Banner';
import { ErrorSummary } from '../../components/ErrorSummary';
import { Field, TextAreaField } from '../../components/Field';
import { useToast } from '../../components/Toast';
import { useFieldErrors } from '../../components/use-field-errors';
import { normalizeHex, themeVars } from '../../lib/color';
import { Link } from 'react-router-dom';
import { saveTipping, tippingSaved, updateProfile } from './api';

/** What each step's save says in its toast (issue 28); a failure stays under the step. */
export const SETUP_SAVED = { bio: 'Bio saved', colors: 'Colours saved' } as const;

/** What every step gets: who, and what to do once it changed something on the server. */
export interface StepProps {
  user: User;
  updateUser: (user: User) => void;
  /** Re-read the checklist (the server decides what is done). */
  onChanged: () => Promise<void>;
  /** The step holds edits not saved yet (the page guards leaving). */
  onDirty?: (dirty: boolean) => void;
}

/** The profile as saved, with one part changed (the profile form's call takes every field). */
const profileWith = (user: User, change: Partial<Pick<User, 'bio' | 'brandColorMain' | 'brandColorLight'>>) => ({
  name: user.name,
  email: user.email,
  bio: user.bio ?? '',
  brandColorMain: normalizeHex(user.brandColorMain, DEFAULT_BRAND_COLOR_MAIN),
  brandColorLight: normalizeHex(user.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT),
  ...change,
});

/** The existing avatar upload, in place (the same checks and messages as Account Settings). */
export function PhotoStep({ user, updateUser, onChanged }: StepProps) {
  return (
    <AvatarPicker
      user={user}
      updateUser={updateUser}
      onUploaded={onChanged}
      size={56}
      fileLabel="Photo file"
      buttonLabel="Upload a photo"
      buttonClassName="button button--primary button--small"
      className="setup-step__row"
      stackClassName="setup-step__stack"
    />
  );
}

export function BioStep({ user, updateUser, onChanged, onDirty }: StepProps) {
  const toast = useToast();
  const [bio, setBio] = useState(user.bio ?? '');
  const form = useFieldErrors(() => ({ bio: bio.trim() ? undefined : 'Please write a line or two about you.' }));
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const dirty = bio.trim() !== (user.bio ?? '').trim();
  useEffect(() => onDirty?.(dirty), [dirty, onDirty]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!form.attempt()) return;
    setSaving(true);
    try {
      updateUser({ ...user, ...(await updateProfile(profileWith(user, { bio: bio.trim() }))) });
      toast(SETUP_SAVED.bio);
      await onChanged();
    } catch {
      setError('Failed to save your bio. Please try again.');
    }
    setSaving(false);
  };
  return (
    <form className="setup-step__stack" noValidate onSubmit={(e) => void save(e)}>
      <TextAreaField
        label="Bio"
        rows={3}
        maxLength={LIMITS.bio}
        hint="What people can ask you about, in a sentence or two."
        {...form.field('bio')}
        value={bio}
        onChange={setBio}
      />
      <ErrorSummary count={form.count} />
      <ErrorBanner>{error}</ErrorBanner>
      <div>
        <button type="submit" className="button button--primary button--small" disabled={saving}>
          {saving ? 'Saving…' : 'Save bio'}
        </button>
      </div>
    </form>
  );
}

export function ColorsStep({ user, updateUser, onChanged, onDirty }: StepProps) {
  const toast = useToast();
  const savedMain = normalizeHex(user.brandColorMain, DEFAULT_BRAND_COLOR_MAIN);
  const savedLight = normalizeHex(user.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT);
  const [main, setMain] = useState(savedMain);
  const [light, setLight] = useState(savedLight);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const dirty = main.toUpperCase() !== savedMain.toUpperCase() || light.toUpperCase() !== savedLight.toUpperCase();
  useEffect(() => onDirty?.(dirty), [dirty, onDirty]);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setSaving(true);
    try {
      updateUser({ ...user, ...(await updateProfile(profileWith(user, { brandColorMain: main, brandColorLight: light }))) });
      toast(SETUP_SAVED.colors);
      await onChanged();
    } catch {
      setError('Failed to save your colours. Please try again.');
    }
    setSaving(false);
  };
  return (
    <form className="setup-step__stack" noValidate onSubmit={(e) => void save(e)}>
      <div className="setup-colors">
        <ColorInput label="Main colour" value={main} onChange={setMain} />
        <ColorInput label="Light colour" value={light} onChange={setLight} />
        <span className="setup-colors__preview" style={themeVars(main, light)} aria-hidden="true">
          Ask a Question
        </span>
      </div>
      <ErrorBanner>{error}</ErrorBanner>
      <div>
        <button type="submit" className="button button--primary button--small" disabled={saving}>
          {saving ? 'Saving…' : 'Save colours'}
        </button>
      </div>
    </form>
  );
}

function ColorInput({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={label} className="field--color">
      {(field) => (
        <div className="color-field">
          <input {...field} type="color" value={value} onChange={(e) => onChange(e.target.value.toUpperCase())} />
          <code>{value.toUpperCase()}</code>
        </div>
      )}
    </Field>
  );
}

export function PayoutsStep() {
  return (
    <p className="setup-step__text">
      Tips are paid out to your own payout account: choose your country and finish the short set-up.{' '}
      <Link to="/admin/payment" className="button button--primary button--small">
        Connect payouts
      </Link>
    </p>
  );
}

/** One click once payouts are connected (the switch's own save); before that, why not and where to go. */
export function TipsStep({ user, onChanged, payoutsConnected }: StepProps & { payoutsConnected: boolean }) {
  const toast = useToast();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  if (!payoutsConnected) {
    return <p className="setup-step__text">Connect payouts first: tips unlock as soon as your payout account is ready.</p>;
  }
  const turnOn = async () => {
    setError('');
    setSaving(true);
    try {
      await saveTipping(user.id || user._id, true);
      toast(tippingSaved(true));
      await onChanged();
    } catch {
      setError(PAYMENT_MESSAGES.saveFailed);
    }
    setSaving(false);
  };
  return (
    <div className="setup-step__stack">
      <p className="setup-step__text">
        Askers can add a tip, held on their card and charged only when you answer.{' '}
        <Link to="/admin/payment">Choose the amounts</Link>
      </p>
      <div>
        <button type="button" className="button button--primary button--small" disabled={saving} onClick={() => void turnOn()}>
          {saving ? 'Turning tips on…' : 'Turn tips on'}
        </button>
      </div>
      <ErrorBanner>{error}</ErrorBanner>
    </div>
  );
}

export function PublicAnswerStep() {
  return (
    <p className="setup-step__text">
      Answer a question you received, or add a Q&amp;A yourself so your page is not empty.{' '}
      <span className="setup-step__links">
        <Link to="/admin/questions-curated" className="button button--primary button--small">
          Curate a Q&amp;A
        </Link>
        <Link to="/admin" className="button button--ghost button--small">
          Answer a question
        </Link>
      </span>
    </p>
  );
}
