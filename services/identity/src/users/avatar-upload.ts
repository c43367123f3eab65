import type { FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES, IDENTITY_MESSAGES as M } from '@ques/contracts';
import { AppError, badRequest } from '@ques/kit';

/**
 * Reads an uploaded file part, refusing it the moment it passes the size limit. (@fastify/multipart's toBuffer only
 * notices at the end of the part, i.e. after the client sent everything; this answers 413 while they are still
 * sending, and never holds more than the limit.)
 */
function readWithinLimit(stream: NodeJS.ReadableStream & { truncated?: boolean }, request: FastifyRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      request.raw.off('end', onRequestEnd);
      request.raw.off('close', onRequestEnd);
      fn();
    };
    // A part cut short (the body ends mid-file) never ends the file stream: once the whole request is in and the
    // parser has had its turn, an unfinished file is a malformed upload.
    const onRequestEnd = () => setTimeout(() => settle(() => reject(badRequest(M.badUpload))), 100).unref();
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('limit', () => settle(() => reject(new AppError('PAYLOAD_TOO_LARGE', M.avatarTooLarge))));
    stream.once('error', (error: Error) => settle(() => reject(error)));
    stream.once('end', () =>
      settle(() => (stream.truncated ? reject(new AppError('PAYLOAD_TOO_LARGE', M.avatarTooLarge)) : resolve(Buffer.concat(chunks)))),
    );
    if (request.raw.readableEnded) onRequestEnd();
    else {
      request.raw.once('end', onRequestEnd);
      request.raw.once('close', onRequestEnd);
    }
  });
}

/**
 * The `avatar` file of a multipart request, within 2 MB. Anything malformed — not multipart, no boundary, a truncated
 * or unparsable part, another field — is the caller's 400 (or 413 when too large), never a 5xx.
 */
export async function readAvatarUpload(request: FastifyRequest): Promise<Buffer> {
  // A declared body far over the limit is refused before a byte of it is read (multipart framing adds a little).
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > AVATAR_MAX_BYTES + 16 * 1024) throw new AppError('PAYLOAD_TOO_LARGE', M.avatarTooLarge);
  if (!request.isMultipart()) throw badRequest(M.chooseImage);
  try {
    const file = await request.file();
    if (!file || file.fieldname !== 'avatar') throw badRequest(M.chooseImage);
    return await readWithinLimit(file.file, request);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw new AppError('PAYLOAD_TOO_LARGE', M.avatarTooLarge);
    // Busboy's "Unexpected end of form", "Boundary not found", a part cut short…: the upload is unreadable.
    request.log.info({ err: error }, 'malformed avatar upload');
    throw badRequest(M.badUpload);
  }
}
