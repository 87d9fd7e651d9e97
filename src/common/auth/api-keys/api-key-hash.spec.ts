import { hashSecret, secretMatches } from './api-key-hash';
import { newKeyId, newSecret } from './api-key-format';

describe('API key hashing', () => {
  const keyId = newKeyId();
  const secret = newSecret();

  it('stores a salt and an HMAC-SHA-256, never the secret', () => {
    const stored = hashSecret(keyId, secret);
    expect(Buffer.from(stored.salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(stored.hash, 'base64url')).toHaveLength(32);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it('matches the right secret and nothing else', () => {
    const stored = hashSecret(keyId, secret);
    expect(secretMatches(keyId, secret, stored)).toBe(true);
    expect(secretMatches(keyId, newSecret(), stored)).toBe(false);
    expect(secretMatches(keyId, secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a'), stored)).toBe(false);
  });

  it('salts every key: one secret hashes differently twice', () => {
    expect(hashSecret(keyId, secret).hash).not.toBe(hashSecret(keyId, secret).hash);
  });

  it('binds the hash to its key id, so a stored hash cannot be moved onto another record', () => {
    const stored = hashSecret(keyId, secret);
    expect(secretMatches(newKeyId(), secret, stored)).toBe(false);
  });

  it('refuses a stored hash of the wrong length instead of throwing', () => {
    const stored = hashSecret(keyId, secret);
    expect(secretMatches(keyId, secret, { ...stored, hash: stored.hash.slice(0, 20) })).toBe(false);
  });
});
