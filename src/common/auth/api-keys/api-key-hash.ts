import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SALT_BYTES = 16;

/** What is stored instead of a secret: a random salt and the HMAC of the key under it (base64url). */
export interface SecretHash {
  salt: string;
  hash: string;
}

/*
 * A fast salted hash (HMAC-SHA-256) is the right tool here, as for GitHub's tokens: the secret is 256 random
 * bits, so there is no dictionary to try and no brute force to slow down, and a deliberately slow KDF
 * (scrypt, bcrypt) would only add its cost to every request. The key id is hashed with the secret, so a
 * stored hash cannot be moved onto another key's record.
 */
function digest(keyId: string, secret: string, salt: Buffer): Buffer {
  return createHmac('sha256', salt).update(`${keyId}_${secret}`).digest();
}

export function hashSecret(keyId: string, secret: string, salt: Buffer = randomBytes(SALT_BYTES)): SecretHash {
  return { salt: salt.toString('base64url'), hash: digest(keyId, secret, salt).toString('base64url') };
}

/** Constant-time comparison of the presented secret's hash with the stored one. */
export function secretMatches(keyId: string, secret: string, stored: SecretHash): boolean {
  const expected = Buffer.from(stored.hash, 'base64url');
  const presented = digest(keyId, secret, Buffer.from(stored.salt, 'base64url'));
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}
