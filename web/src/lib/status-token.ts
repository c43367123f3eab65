/**
 * A new status link, made in the browser when the asker posts (issue 28): 32 random bytes, base64url (43 characters,
 * the shape questions accepts). Made before anything is sent, so a retry of the same submit names the same link and
 * the checkout can return to its page; questions stores it only with the question it creates.
 */
export function newStatusToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
