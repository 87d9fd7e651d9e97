import { CachingIntrospector } from './caching.introspector';
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
    const cache = new CachingIntrospector(inner, options, clock);
    await cache.introspect('t');
    await cache.introspect('t');
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('shares one upstream call between concurrent lookups of the same token', async () => {
    const inner = answering({ active: true, accountId: 'u1', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, clock);
    await Promise.all([cache.introspect('t'), cache.introspect('t'), cache.introspect('t')]);
    expect(inner.introspect).toHaveBeenCalledTimes(1);
  });

  it('does not cache a token that is already past its exp', async () => {
    const inner = answering({
      active: true,
      accountId: 'u1',
      accountType: 'user',
      expiresAt: Math.floor(now / 1000) - 1,
    });
    const cache = new CachingIntrospector(inner, options, clock);
    await cache.introspect('t');
    await cache.introspect('t');
    expect(inner.introspect).toHaveBeenCalledTimes(2);
  });

  it('caches inactive answers only when a negative TTL is set', async () => {
    const inner = answering({ active: false, accountId: '', accountType: 'anonymous' });
    const noNegative = new CachingIntrospector(inner, { ...options, negativeTtlSeconds: 0 }, clock);
    await noNegative.introspect('bad');
    await noNegative.introspect('bad');
    expect(inner.introspect).toHaveBeenCalledTimes(2);
    const withNegative = new CachingIntrospector(inner, options, clock);
    await withNegative.introspect('bad');
    await withNegative.introspect('bad');
    expect(inner.introspect).toHaveBeenCalledTimes(3);
  });

  it('stays bounded: the least recently used token is evicted', async () => {
    const inner = answering({ active: true, accountId: 'u', accountType: 'user' });
    const cache = new CachingIntrospector(inner, options, clock);
    await cache.introspect('a');
    await cache.introspect('b');
    await cache.introspect('c');
    await cache.introspect('a');
    expect(inner.introspect).toHaveBeenCalledTimes(4);
  });
});
