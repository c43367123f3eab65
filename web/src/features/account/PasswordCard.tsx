import { useState } from 'react';
import { IDENTITY_MESSAGES } from '@ques/contracts/core';
import { Field, InputField } from '../../components/Field';
import { changePassword } from './api';
import { messageFor } from './messages';

/**
 * The password change of the Profile tab: the current password and the new one, each one's problem under it (both at
 * once), gone as soon as it is filled in or changed.
 */
export function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<{ field: 'current' | 'next'; message: string; value: string } | null>(null);
  const [changing, setChanging] = useState(false);

  const currentError =
    serverError?.field === 'current' && serverError.value === currentPassword ? serverError.message
    : attempted && !currentPassword ? IDENTITY_MESSAGES.currentPasswordRequired : '';
  const nextError =
    serverError?.field === 'next' && serverError.value === password ? serverError.message
    : attempted && !password ? IDENTITY_MESSAGES.newPasswordRequired : '';

  const submit = async () => {
    setAttempted(true);
    setServerError(null);
    if (!currentPassword || !password) return;
    setChanging(true);
    try {
      await changePassword(password, currentPassword);
      setPassword('');
      setCurrentPassword('');
      setAttempted(false);
      onChanged();
    } catch (err) {
      const message = messageFor(err, 'Failed to update password');
      // "Your current password is incorrect." is about the current one; anything else about the new one.
      const field = message === IDENTITY_MESSAGES.currentPasswordWrong ? 'current' : 'next';
      setServerError({ field, message, value: field === 'current' ? currentPassword : password });
    }
    setChanging(false);
  };

  return (
    <div className="panel account__card">
      <h2 className="account__heading">Password</h2>
      <InputField
        label="Current Password"
        type="password"
        autoComplete="current-password"
        value={currentPassword}
        onChange={setCurrentPassword}
        error={currentError}
      />
      <Field label="New Password" error={nextError}>
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
                  void submit();
                }
              }}
            />
            <button type="button" className="button button--ghost" disabled={changing} onClick={() => void submit()}>
              {changing ? 'Changing…' : 'Change password'}
            </button>
          </div>
        )}
      </Field>
    </div>
  );
}
