import { AVATAR_MAX_BYTES } from '@ques/contracts/core';
import { ApiError } from './api';

/*
 * Picking an avatar to upload (spec §5 "Avatar", §8 account messages): the owner's account page and the operator
 * console's archive profiles check a file the same way before sending it, and word a refusal the same way.
 */

export const AVATAR_TOO_BIG = 'Sorry, your avatar must be smaller than 2 MB. Please choose a smaller image.';
export const AVATAR_NOT_IMAGE = 'Please choose an image file (JPEG, PNG, GIF or WebP).';
export const AVATAR_UPLOAD_TOO_LARGE = 'Image too large. Please pick one under 2 MB.';
export const AVATAR_UPLOAD_FAILED = 'Failed to upload avatar. Try again or use a smaller image.';

/** Spec §5: image files only, under 2 MB (2097152 bytes); checked before sending. */
export function checkAvatarFile(file: Pick<File, 'type' | 'size'>): string | null {
  if (!file.type.startsWith('image/')) return AVATAR_NOT_IMAGE;
  if (file.size >= AVATAR_MAX_BYTES) return AVATAR_TOO_BIG;
  return null;
}

/** What a failed upload says (spec §8): 413 is "too large", anything else the generic failure. */
export const avatarUploadFailure = (err: unknown): string =>
  err instanceof ApiError && err.status === 413 ? AVATAR_UPLOAD_TOO_LARGE : AVATAR_UPLOAD_FAILED;
