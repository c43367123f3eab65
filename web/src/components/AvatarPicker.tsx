import { useRef, useState, type ChangeEvent } from 'react';
import type { User } from '@ques/contracts/core';
import { bumpAvatarVersion } from '../lib/avatar';
import { avatarUploadFailure, checkAvatarFile } from '../lib/avatar-upload';
import { uploadAvatar } from '../lib/owner-calls';
import { Avatar } from './Avatar';
import { ErrorBanner } from './Banner';
import { useToast } from './Toast';

/** What a saved photo says in its toast (issue 28); a refused or failed one stays under the button. */
export const PHOTO_SAVED = 'Photo saved';

interface AvatarPickerProps {
  user: User;
  updateUser: (user: User) => void;
  /** Once the new avatar is saved (the set-up page re-reads its checklist). */
  onUploaded?: () => Promise<void> | void;
  size: number;
  /** The hidden file input's accessible name. */
  fileLabel: string;
  buttonLabel: string;
  buttonClassName: string;
  className?: string;
  stackClassName?: string;
}

/**
 * The owner's avatar with its upload button (Account Settings and the set-up page): a hidden file input behind the
 * button, checked before sending and worded on failure as lib/avatar-upload says.
 */
export function AvatarPicker({ user, updateUser, onUploaded, size, fileLabel, buttonLabel, buttonClassName, className, stackClassName }: AvatarPickerProps) {
  const fileRef = useRef<HTMLInputElement>(null);
  const toast = useToast();
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState('');
  const picked = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // picking the same file again still fires change
    if (!file) return;
    setError('');
    const problem = checkAvatarFile(file);
    if (problem) return setError(problem);
    setUploading(true);
    try {
      const updated = await uploadAvatar(file);
      bumpAvatarVersion();
      updateUser({ ...user, ...updated });
      toast(PHOTO_SAVED);
      await onUploaded?.();
    } catch (err) {
      setError(avatarUploadFailure(err));
    }
    setUploading(false);
  };
  return (
    <div className={className}>
      <Avatar name={user.name} url={user.avatarUrl} size={size} />
      <div className={stackClassName}>
        <input ref={fileRef} type="file" accept="image/*" aria-label={fileLabel} tabIndex={-1} className="visually-hidden" onChange={(e) => void picked(e)} />
        <button type="button" className={buttonClassName} disabled={uploading} onClick={() => fileRef.current?.click()}>
          {uploading ? 'Uploading…' : buttonLabel}
        </button>
        <p className="field__hint">JPEG, PNG, GIF or WebP, under 2 MB.</p>
        <ErrorBanner>{error}</ErrorBanner>
      </div>
    </div>
  );
}
