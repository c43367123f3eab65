import { useEffect, useRef, useState, type FormEvent } from 'react';
import { DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN, IDENTITY_MESSAGES, LIMITS, profilePath, type User } from '@ques/contracts/core';
import { AvatarPicker } from '../../components/AvatarPicker';
import { ErrorBanner } from '../../components/Banner';
import { Field, InputField, TextAreaField } from '../../components/Field';
import { SaveActions } from '../../components/SaveActions';
import { useToast } from '../../components/Toast';
import { normalizeHex, themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { siteOrigin } from '../../lib/head';
import { Link } from 'react-router-dom';
import { useAuth } from '../../lib/auth/auth-context';
import { updateProfile, type ProfileFields } from './api';
import { messageFor } from './messages';
import { PasswordCard } from './PasswordCard';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_PASSWORD_REQUIRED = 'Please enter your current password to change your email address.';

type ProfileField = 'name' | 'email' | 'emailPassword';

const fieldsOf = (user: User | null): ProfileFields => ({
  name: user?.name ?? '',
  email: user?.email ?? '',
  bio: user?.bio ?? '',
  brandColorMain: normalizeHex(user?.brandColorMain, DEFAULT_BRAND_COLOR_MAIN),
  brandColorLight: normalizeHex(user?.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT),
});

/**
 * The Profile tab of Account Settings (spec §2): photo, name, e-mail, bio, the link and the brand colours (one Save),
 * then the password. Each field's problem shows under it, all together once saving was tried, gone when it is valid;
 * a save says what it did in a toast (issue 28).
 */
export function ProfileTab() {
  const { user, updateUser } = useAuth();
  const [fields, setFields] = useState<ProfileFields>(() => fieldsOf(user));
  const toast = useToast();
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<{ field: ProfileField | 'form'; message: string; value: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // Identity asks for the current password to change the e-mail (a session alone cannot).
  const [emailPassword, setEmailPassword] = useState('');
  const [linkError, setLinkError] = useState('');

  // The profile can arrive after this page mounted (start-up fetch); fill the form once it does.
  const filledFor = useRef(user?._id ?? null);
  useEffect(() => {
    if (!user || filledFor.current === user._id) return;
    filledFor.current = user._id;
    setFields(fieldsOf(user));
  }, [user]);

  if (!user) return null;
  const profileLink = `${siteOrigin()}${profilePath(user.username)}`;
  const set = (key: keyof ProfileFields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const emailChanging = fields.email.trim().toLowerCase() !== user.email.toLowerCase();

  const values: Record<ProfileField, string> = { name: fields.name, email: fields.email, emailPassword };
  const problems: Record<ProfileField, string> = {
    name: fields.name.trim() ? '' : 'Name is required',
    email: EMAIL.test(fields.email.trim()) ? '' : 'Please enter a valid email address',
    emailPassword: emailChanging && !emailPassword ? EMAIL_PASSWORD_REQUIRED : '',
  };
  const errorOf = (field: ProfileField) =>
    serverError?.field === field && serverError.value === values[field] ? serverError.message : attempted ? problems[field] : '';

  const saveProfile = async (e: FormEvent) => {
    e.preventDefault();
    setAttempted(true);
    setServerError(null);
    if (Object.values(problems).some(Boolean)) return;
    setSaving(true);
    try {
      const updated = await updateProfile({
        ...fields,
        ...(emailChanging ? { currentPassword: emailPassword } : {}),
        name: fields.name.trim(),
        email: fields.email.trim(),
        bio: fields.bio.trim(),
        // Colour pickers report lowercase; stored colours keep the #RRGGBB form of the defaults.
        brandColorMain: normalizeHex(fields.brandColorMain, DEFAULT_BRAND_COLOR_MAIN),
        brandColorLight: normalizeHex(fields.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT),
      });
      updateUser({ ...user, ...updated });
      setEmailPassword('');
      setAttempted(false);
      toast(
        emailChanging
          ? `Profile updated successfully! We sent a link to ${updated.email || fields.email.trim()}: open it to verify your new address.`
          : 'Profile updated successfully!',
      );
    } catch (err) {
      const message = messageFor(err, 'Failed to update profile. Please try again later.');
      // The server's words go under the field they are about.
      const field: ProfileField | 'form' =
        message === IDENTITY_MESSAGES.emailTaken || /valid email/.test(message) ? 'email'
        : message === IDENTITY_MESSAGES.currentPasswordWrong || message === IDENTITY_MESSAGES.currentPasswordRequired ? 'emailPassword'
        : /^Name/.test(message) ? 'name'
        : 'form';
      setServerError({ field, message, value: field === 'form' ? '' : values[field] });
    }
    setSaving(false);
  };

  const copyLink = async () => {
    setLinkError('');
    try {
      await navigator.clipboard.writeText(profileLink);
      toast('Profile link copied to clipboard!');
    } catch {
      setLinkError('Failed to copy link');
    }
  };

  return (
    <>
      <form className="panel account__card" noValidate onSubmit={(e) => void saveProfile(e)}>
        <h2 className="account__heading">Profile</h2>
        <AvatarPicker
          user={user}
          updateUser={updateUser}
          size={AVATAR_SIZE}
          fileLabel="Avatar image file"
          buttonLabel="Upload new photo"
          buttonClassName="button button--ghost button--small"
          className="account__avatar-row"
        />

        <InputField label="Name" type="text" autoComplete="name" value={fields.name} onChange={set('name')} error={errorOf('name')} />
        <InputField label="Email Address" type="email" autoComplete="email" value={fields.email} onChange={set('email')} error={errorOf('email')} />
        {emailChanging ? (
          <InputField
            label="Current Password (to change your email)"
            type="password"
            autoComplete="current-password"
            hint="A link to verify the new address is sent to it."
            value={emailPassword}
            onChange={setEmailPassword}
            error={errorOf('emailPassword')}
          />
        ) : null}
        <TextAreaField label="Bio" rows={4} maxLength={LIMITS.bio} value={fields.bio} onChange={set('bio')} />
        <Field
          label="Profile Link"
          hint={
            <>
              Want a different one? <Link to="/admin/account-settings/link">Change your public link</Link>.
            </>
          }
        >
          {(field) => (
            <>
              <div className="input-group">
                <input {...field} className="input" type="text" readOnly value={profileLink} onFocus={(e) => e.target.select()} />
                <button type="button" className="button button--ghost" onClick={() => void copyLink()}>
                  Copy Link
                </button>
              </div>
              <ErrorBanner>{linkError}</ErrorBanner>
            </>
          )}
        </Field>

        <h2 className="account__heading">Brand colours</h2>
        <div className="account__colors">
          <ColorField label="Main colour" value={fields.brandColorMain} onChange={set('brandColorMain')} />
          <ColorField label="Light colour" value={fields.brandColorLight} onChange={set('brandColorLight')} />
          <div className="color-preview" style={themeVars(fields.brandColorMain, fields.brandColorLight)} aria-hidden="true">
            <span className="color-preview__banner" />
            <span className="color-preview__text">Your public page</span>
            <span className="color-preview__button">Ask a Question</span>
          </div>
        </div>
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => setFields((f) => ({ ...f, brandColorMain: DEFAULT_BRAND_COLOR_MAIN, brandColorLight: DEFAULT_BRAND_COLOR_LIGHT }))}
        >
          Reset Colors to Default
        </button>

        <SaveActions
          error={serverError?.field === 'form' ? serverError.message : ''}
          saving={saving}
          label="Save Account Settings"
          className="account__actions"
        />
      </form>
      <PasswordCard onChanged={() => toast('Your password has been successfully updated.')} />
    </>
  );
}

function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <Field label={label} className="field--color">
      {(field) => (
        <div className="color-field">
          <input {...field} type="color" value={value} onChange={(e) => onChange(e.target.value)} />
          <code>{value.toUpperCase()}</code>
        </div>
      )}
    </Field>
  );
}
