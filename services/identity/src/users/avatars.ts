import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { IdentityDB } from '../db/schema.js';
import sharp from 'sharp';
import { IDENTITY_MESSAGES as M } from '@ques/contracts';
import { AppError } from '@ques/kit/errors';

/** Square sizes we keep: the profile shows 80 px (160 for 2x screens); 512 for share previews and large avatars. */
export const AVATAR_SIZES = [160, 512] as const;
export const AVATAR_DEFAULT_SIZE = 512;
/** Decoding stops before allocating more than this many pixels (a small file can claim a gigapixel image). */
export const AVATAR_MAX_INPUT_PIXELS = 24_000_000;

export const TOO_LARGE = M.avatarTooLarge;
const NOT_AN_IMAGE = M.notAnImage;
const TOO_MANY_PIXELS = M.tooManyPixels;
const UNREADABLE = M.unreadableImage;

type ImageKind = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/** The image type told by the file's first bytes (never by its name or declared type). SVG is not accepted. */
export function sniffImage(bytes: Buffer): ImageKind | null {
  const at = (offset: number, signature: number[]) => signature.every((b, i) => bytes[offset + i] === b);
  const ascii = (offset: number, text: string) => bytes.subarray(offset, offset + text.length).toString('latin1') === text;
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  if (ascii(4, 'ftyp') && (ascii(8, 'avif') || ascii(8, 'avis'))) return 'avif';
  return null;
}

export interface EncodedAvatar {
  version: string;
  images: { size: number; bytes: Buffer }[];
}

/**
 * Re-encodes an upload: first frame only, turned upright by its EXIF orientation, cropped square, WebP at each size.
 * sharp writes no metadata unless asked, so EXIF/GPS/XMP never leave this function.
 */
export async function encodeAvatar(upload: Buffer): Promise<EncodedAvatar> {
  if (!sniffImage(upload)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
  const source = () => sharp(upload, { limitInputPixels: AVATAR_MAX_INPUT_PIXELS, failOn: 'error', animated: false, sequentialRead: true });
  try {
    const meta = await source().metadata();
    if (!meta.width || !meta.height) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UNREADABLE);
    if (meta.width * meta.height > AVATAR_MAX_INPUT_PIXELS) throw new AppError('PAYLOAD_TOO_LARGE', TOO_MANY_PIXELS);
    const images = await Promise.all(
      AVATAR_SIZES.map(async (size) => ({
        size,
        bytes: await source().rotate().resize(size, size, { fit: 'cover', position: 'attention' }).webp({ quality: 82 }).toBuffer(),
      })),
    );
    return { version: `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`, images };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) throw new AppError('PAYLOAD_TOO_LARGE', TOO_MANY_PIXELS);
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', UNREADABLE);
  }
}

export const avatarUrl = (userId: string, version: string, size: number = AVATAR_DEFAULT_SIZE) =>
  size === AVATAR_DEFAULT_SIZE ? `/images/avatars/${userId}/${version}.webp` : `/images/avatars/${userId}/${version}-${size}.webp`;

/** Parses `<version>.webp` or `<version>-<size>.webp`. */
export function parseAvatarFile(file: string): { version: string; size: number } | null {
  const match = /^([a-z0-9]{6,40})(?:-(\d{2,4}))?\.webp$/.exec(file);
  if (!match) return null;
  const size = match[2] ? Number(match[2]) : AVATAR_DEFAULT_SIZE;
  return (AVATAR_SIZES as readonly number[]).includes(size) ? { version: match[1]!, size } : null;
}

export class AvatarStore {
  constructor(private readonly db: Kysely<IdentityDB>) {}

  /** Keeps only the new version: an old URL stops being served rather than showing a stale face. */
  async replace(trx: Kysely<IdentityDB>, userId: string, avatar: EncodedAvatar, now: Date): Promise<void> {
    await trx.deleteFrom('avatars').where('user_id', '=', userId).execute();
    await trx
      .insertInto('avatars')
      .values(avatar.images.map((image) => ({ user_id: userId, version: avatar.version, size: image.size, content_type: 'image/webp', bytes: image.bytes, created_at: now })))
      .execute();
  }

  async remove(trx: Kysely<IdentityDB>, userId: string): Promise<void> {
    await trx.deleteFrom('avatars').where('user_id', '=', userId).execute();
  }

  async get(userId: string, version: string, size: number): Promise<{ contentType: string; bytes: Buffer } | null> {
    const row = await this.db
      .selectFrom('avatars')
      .select(['content_type', 'bytes'])
      .where('user_id', '=', userId)
      .where('version', '=', version)
      .where('size', '=', size)
      .executeTakeFirst();
    return row ? { contentType: row.content_type, bytes: Buffer.from(row.bytes) } : null;
  }
}
