import { DEFAULT_AVATAR_URL, isDefaultAvatar } from '@ques/contracts/core';

/**
 * The cache-busting version (spec §2). It changes hourly, so visitors still get HTTP caching, and it is
 * bumped at once after the signed-in user uploads a new avatar.
 */
let avatarVersion = String(Math.floor(Date.now() / 3_600_000));
export function bumpAvatarVersion(): void {
  avatarVersion = String(Date.now());
}

/** The image URL to render: the default image as is, any other with a `v` parameter. */
export function avatarSrc(url: string | undefined | null): string {
  if (!url || isDefaultAvatar(url)) return DEFAULT_AVATAR_URL;
  const sep = url.includes('?') ? '&' : '?';
  return `${url}${sep}v=${avatarVersion}`;
}
