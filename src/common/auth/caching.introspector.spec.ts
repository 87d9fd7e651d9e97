import { CachingIntrospector, tokenHash } from './caching.introspector';
import { SharedTokenCache, SharedTokenEntry } from './shared-token-cache.port';
import { TokenInfo, TokenIntrospector } from './token-introspector.port';
import { mockPort } from '../../../test/support/unit/mocks';

/** The introspector behind the cache, answering every token the same way. */
const answering = (answer: TokenInfo) => mockPort(TokenIntrospector, { introspect: async () => answer });

describe('CachingIntrospector', () => {
  const options = { maxEntries: 2, ttlSeconds: 60, negativeTtlSeconds: 5 };
  const now = 1_000_000;
  const clock = () => now;

  it('answers a repeated token from the cache', async () => {
    const inner = answering({ active: true, accountId: 'u1', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, { now: clock });
    await cache.introspect('t');
    await cache.introspect('t');
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('shares one upstream call between concurrent lookups of the same token', async () => {
    const inner = answering({ active: true, accountId: 'u1', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, { now: clock });
    await Promise.all([cache.introspect('t'), cache.introspect('t'), cache.introspect('t')]);
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('asks admission only before the authority is called, and a refusal calls nobody and caches nothing', async () => {
    const inner = answering({ active: true, accountId: 'u1', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, { now: clock });
    const admit = jest.fn(async () => undefined);
    await cache.introspect('t', admit);
    await cache.introspect('t', admit);
    expect([admit.mock.calls.length, inner.introspect.mock.calls.length]).toEqual([1, 1]);

    const refuse = jest.fn(async () => Promise.reject(new Error('spent')));
    await expect(cache.introspect('other', refuse)).rejects.toThrow('spent');
    expect(inner.introspect).toHaveBeenCalledTimes(1);
    await cache.introspect('other', admit);
    expect(inner.introspect).toHaveBeenCalledTimes(2);
  });

  it('does not cache a token that is already past its exp', async () => {
    const inner = answering({
      active: true,
      accountId: 'u1',
      accountType: 'user',
      expiresAt: Math.floor(now / 1000) - 1,
    });
    const cache = new CachingIntrospector(inner, options, { now: clock });
    await cache.introspect('t');
    await cache.introspect('t');
    expect(inner.introspect).toHaveBeenCalledTimes(2);
  });

  it('caches inactive answers only when a negative TTL is set', async () => {
    const inner = answering({ active: false, accountId: '', accountType: 'anonymous' });
    const noNegative = new CachingIntrospector(inner, { ...options, negativeTtlSeconds: 0 }, { now: clock });
    await noNegative.introspect('bad');
    await noNegative.introspect('bad');
    expect(inner.introspect).toHaveBeenCalledTimes(2);
    const withNegative = new CachingIntrospector(inner, options, { now: clock });
    await withNegative.introspect('bad');
    await withNegative.introspect('bad');
    expect(inner.introspect).toHaveBeenCalledTimes(3);
  });

  it('stays bounded: the least recently used token is evicted', async () => {
    const inner = answering({ active: true, accountId: 'u', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, { now: clock });
    await cache.introspect('a');
    await cache.introspect('b');
    await cache.introspect('c');
    await cache.introspect('a');
    expect(inner.introspect).toHaveBeenCalledTimes(4);
  });
});

/** A shared cache in memory, recording what it was given, as replicas would see one Redis. */
class MemoryTokenCache extends SharedTokenCache {
  readonly entries = new Map<string, SharedTokenEntry>();

  get(tokenHash: string): Promise<SharedTokenEntry | undefined> {
    return Promise.resolve(this.entries.get(tokenHash));
  }

  set(tokenHash: string, info: TokenInfo, ttlMs: number): Promise<void> {
    this.entries.set(tokenHash, { info, ttlMs });
    return Promise.resolve();
  }
}

describe('CachingIntrospector with a shared cache', () => {
  const options = { maxEntries: 10, ttlSeconds: 60, negativeTtlSeconds: 5 };
  const now = 1_000_000;
  const clock = () => now;
  const user: TokenInfo = { active: true, accountId: 'u1', accountType: 'user', expiresAt: now / 1000 + 30 };

  it('lets two replicas introspect a token once between them', async () => {
    const shared = new MemoryTokenCache();
    const inner = answering(user);
    const [first, second] = [0, 1].map(() => new CachingIntrospector(inner, options, { shared, now: clock }));
    await expect(first.introspect('t')).resolves.toEqual(user);
    await expect(second.introspect('t')).resolves.toEqual(user);
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('stores the answer under the token hash with its TTL (until exp, capped), never under the token', async () => {
    const shared = new MemoryTokenCache();
    await new CachingIntrospector(answering(user), options, { shared, now: clock }).introspect('secret-token');
    expect([...shared.entries.keys()]).toEqual([tokenHash('secret-token')]);
    expect(tokenHash('secret-token')).not.toContain('secret-token');
    expect(shared.entries.get(tokenHash('secret-token'))).toEqual({ info: user, ttlMs: 30_000 });
  });

  it('shares inactive answers for the negative TTL, and nothing when that TTL is 0', async () => {
    const inactive: TokenInfo = { active: false, accountId: '', accountType: 'anonymous' };
    const shared = new MemoryTokenCache();
    await new CachingIntrospector(answering(inactive), options, { shared, now: clock }).introspect('bad');
    expect(shared.entries.get(tokenHash('bad'))).toEqual({ info: inactive, ttlMs: 5000 });
    const none = new MemoryTokenCache();
    const noNegative = { ...options, negativeTtlSeconds: 0 };
    await new CachingIntrospector(answering(inactive), noNegative, { shared: none, now: clock }).introspect('bad');
    expect(none.entries.size).toBe(0);
  });

  it("ignores a shared answer this replica's rules say is stale (past exp) and introspects again", async () => {
    const shared = new MemoryTokenCache();
    const expired: TokenInfo = { ...user, expiresAt: now / 1000 - 1 };
    shared.entries.set(tokenHash('t'), { info: expired, ttlMs: 60_000 });
    const inner = answering(user);
    await expect(new CachingIntrospector(inner, options, { shared, now: clock }).introspect('t')).resolves.toEqual(
      user,
    );
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('asks no admission for an answer another replica shared', async () => {
    const shared = new MemoryTokenCache();
    shared.entries.set(tokenHash('t'), { info: user, ttlMs: 1000 });
    const admit = jest.fn(async () => undefined);
    await new CachingIntrospector(answering(user), options, { shared, now: clock }).introspect('t', admit);
    expect(admit).not.toHaveBeenCalled();
  });

  it('keeps a shared hit in process, so the next request does not ask the shared cache again', async () => {
    const shared = new MemoryTokenCache();
    shared.entries.set(tokenHash('t'), { info: user, ttlMs: 1000 });
    const inner = answering(user);
    const cache = new CachingIntrospector(inner, options, { shared, now: clock });
    await cache.introspect('t');
    shared.entries.clear();
    await expect(cache.introspect('t')).resolves.toEqual(user);
    expect(inner.introspect).not.toHaveBeenCalled();
  });
});
