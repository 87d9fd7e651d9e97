import { randomBytes } from 'node:crypto';

/** Every API key starts with this, so the auth layer can tell a key from an OAuth token without a lookup. */
export const API_KEY_PREFIX = 'ar_';

/** 8 random bytes as lowercase hex: 16 characters, never `_`. */
const KEY_ID_BYTES = 8;
/** Base62 characters of a secret: 43 × log2(62) ≈ 256 bits of entropy. */
export const SECRET_LENGTH = 43;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// The largest multiple of 62 below 256: bytes from 248 up are drawn again, so every character is equally likely.
const UNBIASED_LIMIT = 248;

export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
const API_KEY_PATTERN = /^ar_([0-9a-f]{16})_([0-9A-Za-z]{43})$/;

/** The two halves of a well-formed key: the id names the stored record, the secret proves possession. */
export interface ParsedApiKey {
  keyId: string;
  secret: string;
}

/** Strict: exactly `ar_<16 lowercase hex>_<43 base62>`; anything else (padding, case, extra `_`) is no key. */
export function parseApiKey(token: string): ParsedApiKey | undefined {
  const match = API_KEY_PATTERN.exec(token);
  return match ? { keyId: match[1], secret: match[2] } : undefined;
}

export function formatApiKey(keyId: string, secret: string): string {
  return `${API_KEY_PREFIX}${keyId}_${secret}`;
}

export function newKeyId(): string {
  return randomBytes(KEY_ID_BYTES).toString('hex');
}

export function newSecret(): string {
  let secret = '';
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(SECRET_LENGTH)) {
      if (byte < UNBIASED_LIMIT && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return secret;
}

/**
 * The key id of a full key or of a bare id, so an operator who pastes the whole key into `revoke` still
 * revokes the right one; undefined when it is neither.
 */
export function keyIdOf(text: string): string | undefined {
  if (KEY_ID_PATTERN.test(text)) return text;
  return parseApiKey(text)?.keyId;
}

const KEY_IN_TEXT = /ar_([0-9a-f]{16})_[0-9A-Za-z]{8,}/g;

/** Text (a URL, a message) with every API key's secret masked, so a key pasted in a path never reaches a log. */
export function maskApiKeys(text: string): string {
  return text.includes(API_KEY_PREFIX) ? text.replace(KEY_IN_TEXT, 'ar_$1_***') : text;
}
