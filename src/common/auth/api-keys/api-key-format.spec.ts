import { formatApiKey, keyIdOf, newKeyId, newSecret, parseApiKey, SECRET_LENGTH } from './api-key-format';

describe('API key format', () => {
  const keyId = '0123456789abcdef';
  const secret = 'A'.repeat(20) + 'z9'.repeat(11) + 'b';

  it('formats ar_<key id>_<secret> and parses it back into its halves', () => {
    const key = formatApiKey(keyId, secret);
    expect(key).toBe(`ar_${keyId}_${secret}`);
    expect(parseApiKey(key)).toEqual({ keyId, secret });
  });

  it('mints ids of 16 lowercase hex characters and base62 secrets of 43 characters (≈ 256 bits), never with _', () => {
    const ids = new Set(Array.from({ length: 200 }, newKeyId));
    const secrets = Array.from({ length: 200 }, newSecret);
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    for (const minted of secrets) expect(minted).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(SECRET_LENGTH * Math.log2(62)).toBeGreaterThan(190);
    expect(new Set(secrets).size).toBe(200);
    // Every one of the 62 characters turns up in 8,600 draws: no part of the alphabet is left out.
    expect(new Set(secrets.join('')).size).toBe(62);
  });

  it('round-trips minted keys', () => {
    const [id, minted] = [newKeyId(), newSecret()];
    expect(parseApiKey(formatApiKey(id, minted))).toEqual({ keyId: id, secret: minted });
  });

  it.each([
    ['an uppercase id', `ar_0123456789ABCDEF_${secret}`],
    ['a short id', `ar_0123456789abcde_${secret}`],
    ['a short secret', `ar_${keyId}_${secret.slice(1)}`],
    ['a long secret', `ar_${keyId}_${secret}x`],
    ['an _ inside the secret', `ar_${keyId}_${secret.slice(1, 22)}_${secret.slice(23)}`],
    ['a - inside the secret', `ar_${keyId}_-${secret.slice(1)}`],
    ['another prefix', `AR_${keyId}_${secret}`],
    ['surrounding whitespace', ` ar_${keyId}_${secret} `],
    ['a trailing newline', `ar_${keyId}_${secret}\n`],
    ['the prefix alone', 'ar_'],
  ])('refuses %s', (_label, token) => {
    expect(parseApiKey(token)).toBeUndefined();
  });

  it('finds the key id in a bare id or a full key, and nowhere else', () => {
    expect(keyIdOf(keyId)).toBe(keyId);
    expect(keyIdOf(formatApiKey(keyId, secret))).toBe(keyId);
    expect(keyIdOf('0123456789ABCDEF')).toBeUndefined();
    expect(keyIdOf(`ar_${keyId}_short`)).toBeUndefined();
  });
});
