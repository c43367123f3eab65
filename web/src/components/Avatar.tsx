import { isDefaultAvatar } from '@ques/contracts/core';
import { AVATAR_SIZE } from '../lib/constants';
import { avatarSrc } from '../lib/avatar';
import { initials } from '../lib/text';

interface AvatarProps {
  name: string | undefined;
  url: string | undefined | null;
  size?: number;
  /** Show initials instead of the default image (header, admin menu). */
  initialsWhenDefault?: boolean;
  /** Above-the-fold avatar on the public profile: load it eagerly with high priority. */
  priority?: boolean;
  className?: string;
  /** Text for the image; default the name. '' when the name is written right beside it (a link's own text). */
  alt?: string;
}

/** Uploaded avatars exist at 512 and 160 px (identity's AVATAR_SIZES, `-160` before `.webp`): the screen picks. */
export function avatarSrcSet(src: string): string | undefined {
  const match = /^(\/images\/avatars\/[^/?]+\/[a-z0-9]+)\.webp(\?[^\s,]*)?$/.exec(src);
  return match ? `${match[1]}-160.webp${match[2] ?? ''} 160w, ${match[1]}.webp${match[2] ?? ''} 512w` : undefined;
}

/** Round avatar with fixed dimensions (no layout shift while the image loads). */
export function Avatar({ name, url, size = AVATAR_SIZE, initialsWhenDefault, priority, className, alt }: AvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38) };
  const cls = `avatar${className ? ` ${className}` : ''}`;
  if (initialsWhenDefault && isDefaultAvatar(url)) {
    return (
      <span className={`${cls} avatar--initials`} style={style} aria-hidden="true">
        {initials(name)}
      </span>
    );
  }
  const src = avatarSrc(url);
  const srcSet = avatarSrcSet(src);
  return (
    <img
      className={cls}
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? `${size}px` : undefined}
      width={size}
      height={size}
      style={style}
      alt={alt ?? (name ? `${name}` : '')}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      {...(priority ? { fetchPriority: 'high' as const } : {})}
    />
  );
}
