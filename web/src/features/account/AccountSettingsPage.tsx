import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN, LIMITS, profilePath } from '@ques/contracts/core';
import { useNavigate } from '../../lib/router';
import { Avatar } from '../../components/Avatar';
import { ErrorBanner, SuccessBanner, useSuccessMessage } from '../../components/Banner';
import { Field, InputField, TextAreaField } from '../../components/Field';
import { ApiError } from '../../lib/api';
import { bumpAvatarVersion } from '../../lib/avatar';
import { avatarUploadFailure } from '../../lib/avatar-upload';
import { normalizeHex, themeVars } from '../../lib/color';
import { AVATAR_SIZE } from '../../lib/constants';
import { siteOrigin, usePageHead } from '../../lib/head';
import { useAuth } from '../../lib/auth/auth-context';
import { AskingSettingsSection } from './AskingSettingsSection';
import { DataExportSection } from './DataExportSection';
import { EmbedSection } from './EmbedSection';
import { changePassword, checkAvatarFile, deleteAccount, resendVerification, updateProfile, uploadAvatar, type ProfileFields } from './api';
import { SaveActions } from '../../components/SaveActions';
import './account.css';

export const DELETE_CONFIRM_TEXT = 'Are you sure you want to delete your account? This action cannot be undone.';

/** A client error's own message is more useful than the generic text; server faults get the generic text. */
const messageFor = (err: unknown, generic: string) =>
  err instanceof ApiError && err.status < 500 && err.status !== 401 && err.serverMessage ? err.serverMessage : generic;

/** Account settings (spec §2 "Account settings", §8 account messages). */
export default function AccountSettingsPage() {
  usePageHead('Account Settings — Ques', 'Your Ques account settings.', '/admin/account-settings');
  const { user, updateUser, endSession } = useAuth();
  const navigate = useNavigate();

  const [fields, setFields] = useState<ProfileFields>(() => ({
    name: user?.name ?? '',
    email: user?.email ?? '',
    bio: user?.bio ?? '',
    brandColorMain: normalizeHex(user?.brandColorMain, DEFAULT_BRAND_COLOR_MAIN),
    brandColorLight: normalizeHex(user?.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT),
  }));
  const [success, showSuccess] = useSuccessMessage();
  const [profileError, setProfileError] = useState('');
  const [saving, setSaving] = useState(false);
  // Identity asks for the current password to change the e-mail or the password (a session alone cannot).
  const [emailPassword, setEmailPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const [resending, setResending] = useState(false);
  const [verifyNote, setVerifyNote] = useState('');
  const [verifyError, setVerifyError] = useState('');
  const [changingPassword, setChangingPassword] = useState(false);
  const [avatarError, setAvatarError] = useState('');
  const [uploading, setUploading] = useState(false);
  const [linkError, setLinkError] = useState('');
  const [deleteError, setDeleteError] = useState('');
  const [deleting, setDeleting] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  // The profile can arrive after this page mounted (start-up fetch); fill the form once it does.
  const filledFor = useRef(user?._id ?? null);
  useEffect(() => {
    if (!user || filledFor.current === user._id) return;
    filledFor.current = user._id;
    setFields({
      name: user.name,
      email: user.email,
      bio: user.bio ?? '',
      brandColorMain: normalizeHex(user.brandColorMain, DEFAULT_BRAND_COLOR_MAIN),
      brandColorLight: normalizeHex(user.brandColorLight, DEFAULT_BRAND_COLOR_LIGHT),
    });
  }, [user]);

  if (!user) return null;
  const profileLink = `${siteOrigin()}${profilePath(user.username)}`;
  const set = (key: keyof ProfileFields) => (value: string) => setFields((f) => ({ ...f, [key]: value }));
  const emailChanging = fields.email.trim().toLowerCase() !== user.email.toLowerCase();

  const saveProfile = async (e: FormEvent) => {
    e.preventDefault();
    if (emailChanging && !emailPassword) {
      setProfileError('Please enter your current password to change your email address.');
      return;
    }
    setSaving(true);
    setProfileError('');
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
      showSuccess(
        emailChanging
          ? `Profile updated successfully! We sent a link to ${updated.email || fields.email.trim()}: open it to verify your new address.`
          : 'Profile updated successfully!',
      );
    } catch (err) {
      setProfileError(messageFor(err, 'Failed to update profile. Please try again later.'));
    }
    setSaving(false);
  };

  const submitPassword = async () => {
    if (!currentPassword) {
      setPasswordError('Please enter your current password.');
      return;
    }
    if (!password) {
      setPasswordError('Please enter a new password.');
      return;
    }
    setChangingPassword(true);
    setPasswordError('');
    try {
      await changePassword(password, currentPassword);
      setPassword('');
      setCurrentPassword('');
      showSuccess('Your password has been successfully updated.');
    } catch (err) {
      setPasswordError(messageFor(err, 'Failed to update password'));
    }
    setChangingPassword(false);
  };

  const resend = async () => {
    setResending(true);
    setVerifyNote('');
    setVerifyError('');
    try {
      const res = await resendVerification();
      setVerifyNote(res.message ?? `Verification email sent to ${user.email}. Please check your inbox.`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        updateUser({ ...user, emailVerified: true });
      } else {
        setVerifyError(messageFor(err, 'Failed to send the verification email. Please try again later.'));
      }
    }
    setResending(false);
  };

  const copyLink = async () => {
    setLinkError('');
    try {
      await navigator.clipboard.writeText(profileLink);
      showSuccess('Profile link copied to clipboard!');
    } catch {
      setLinkError('Failed to copy link');
    }
  };

  const onAvatarPicked = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // picking the same file again still fires change
    if (!file) return;
    setAvatarError('');
    const problem = checkAvatarFile(file);
    if (problem) {
      setAvatarError(problem);
      return;
    }
    setUploading(true);
    try {
      const updated = await uploadAvatar(file);
      bumpAvatarVersion();
      updateUser({ ...user, ...updated });
    } catch (err) {
      setAvatarError(avatarUploadFailure(err));
    }
    setUploading(false);
  };

  const removeAccount = async () => {
    if (!window.confirm(DELETE_CONFIRM_TEXT)) return;
    setDeleting(true);
    setDeleteError('');
    try {
      await deleteAccount(user.id || user._id);
      endSession();
      void navigate('/login', { replace: true, state: { flash: 'Account deleted successfully' } });
    } catch {
      setDeleteError('Failed to delete account');
      setDeleting(false);
    }
  };

  return (
    <section className="admin-page account">
      <h1 className="admin-page__title">Account Settings</h1>
      <SuccessBanner message={success} className="account__success" />
      {user.emailVerified === false ? (
        <div className="panel account__card account__card--notice" role="region" aria-label="Verify your email">
          <h2 className="account__heading">Verify your email</h2>
          <p>
            We sent a link to <strong>{user.email}</strong>. Open it to confirm this address is yours: until then, questions
            you asked as a guest with it stay unlinked from your account and we send no notifications to it.
          </p>
          {verifyNote ? <p role="status">{verifyNote}</p> : null}
          <ErrorBanner>{verifyError}</ErrorBanner>
          <button type="button" className="button button--ghost button--small" disabled={resending} onClick={() => void resend()}>
            {resending ? 'Sending…' : 'Resend verification email'}
          </button>
        </div>
      ) : null}

      <form className="panel account__card" noValidate onSubmit={(e) => void saveProfile(e)}>
        <h2 className="account__heading">Profile</h2>
        <div className="account__avatar-row">
          <Avatar name={user.name} url={user.avatarUrl} size={AVATAR_SIZE} />
          <div>
            <input
              ref={fileRef}
              type="file"
              accept="image/*"
              aria-label="Avatar image file"
              tabIndex={-1}
              className="visually-hidden"
              onChange={(e) => void onAvatarPicked(e)}
            />
            <button type="button" className="button button--ghost button--small" disabled={uploading} onClick={() => fileRef.current?.click()}>
              {uploading ? 'Uploading…' : 'Upload new photo'}
            </button>
            <p className="field__hint">JPEG, PNG, GIF or WebP, under 2 MB.</p>
            <ErrorBanner>{avatarError}</ErrorBanner>
          </div>
        </div>

        <InputField label="Name" type="text" autoComplete="name" value={fields.name} onChange={set('name')} />
        <InputField label="Email Address" type="email" autoComplete="email" value={fields.email} onChange={set('email')} />
        {emailChanging ? (
          <InputField
            label="Current Password (to change your email)"
            type="password"
            autoComplete="current-password"
            hint="A link to verify the new address is sent to it."
            value={emailPassword}
            onChange={setEmailPassword}
          />
        ) : null}
        <TextAreaField label="Bio" rows={4} maxLength={LIMITS.bio} value={fields.bio} onChange={set('bio')} />
        <Field label="Profile Link">
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
          onClick={() =>
            setFields((f) => ({ ...f, brandColorMain: DEFAULT_BRAND_COLOR_MAIN, brandColorLight: DEFAULT_BRAND_COLOR_LIGHT }))
          }
        >
          Reset Colors to Default
        </button>

        <SaveActions error={profileError} saving={saving} label="Save Account Settings" className="account__actions" />
      </form>

      <div className="panel account__card">
        <h2 className="account__heading">Password</h2>
        <InputField
          label="Current Password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
        />
        <Field label="New Password" error={passwordError}>
          {(field) => (
            <div className="input-group">
              <input
                {...field}
                className="input"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    void submitPassword();
                  }
                }}
              />
              <button type="button" className="button button--ghost" disabled={changingPassword} onClick={() => void submitPassword()}>
                {changingPassword ? 'Changing…' : 'Change password'}
              </button>
            </div>
          )}
        </Field>
      </div>

      <AskingSettingsSection />

      {/* Issue 15: the ask button for other websites, and the data export. */}
      <EmbedSection user={user} />
      <DataExportSection />

      <div className="panel account__card account__card--danger">
        <h2 className="account__heading">Delete account</h2>
        <p>Deleting your account removes your public page and your questions. This cannot be undone.</p>
        <ErrorBanner>{deleteError}</ErrorBanner>
        <button type="button" className="button button--danger" disabled={deleting} onClick={() => void removeAccount()}>
          {deleting ? 'Deleting…' : 'Delete Account'}
        </button>
      </div>
    </section>
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
