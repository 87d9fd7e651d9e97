import { Logger } from '@nestjs/common';
import { HttpPeer, sendJson } from '../../../test/support/http-peer';
import { HydraIntrospector } from './hydra.introspector';
import { INACTIVE } from './token-introspector.port';

/** The introspection endpoint on loopback; it answers every token with the last `answering` JSON (RFC 7662). */
let answer: unknown;
const hydra = new HttpPeer((_request, response) => sendJson(response, 200, answer));
const answering = (next: unknown): void => {
  answer = next;
};

describe('HydraIntrospector names an account only from a usable sub', () => {
  let introspector: HydraIntrospector;
  let warnings: string[];

  beforeAll(async () => {
    const url = await hydra.start();
    introspector = new HydraIntrospector({ introspectUrl: `${url}/introspect`, introspectTimeoutMs: 1000 });
  });

  afterAll(() => hydra.stop());

  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['an empty sub', { sub: '' }, 'an empty sub'],
    ['a blank sub', { sub: '  ' }, 'an empty sub'],
    ['no sub', {}, 'no sub'],
    ['an array sub', { sub: ['acctA'] }, 'a non-string (array) sub'],
    ['a numeric sub', { sub: 42 }, 'a non-string (number) sub'],
    ['an empty client_id', { sub: 'u-1', client_id: '' }, 'an empty client_id'],
    ['an object client_id', { sub: 'u-1', client_id: { id: 'x' } }, 'a non-string (object) client_id'],
  ])('refuses an active answer with %s as inactive, logging which field', async (_case, fields, logged) => {
    answering({ active: true, ...fields });
    await expect(introspector.introspect('token-value')).resolves.toEqual(INACTIVE);
    expect(warnings).toEqual([`introspection answered an active token with ${logged}; refused (401)`]);
  });

  it('keeps accepting a string sub, with or without client_id', async () => {
    answering({ active: true, sub: 'svc-1', client_id: 'svc-1' });
    await expect(introspector.introspect('t')).resolves.toMatchObject({ accountId: 'svc-1', accountType: 'app' });
    answering({ active: true, sub: 'u-1', client_id: null, ext: { visitor_type: 'realname' } });
    await expect(introspector.introspect('t')).resolves.toMatchObject({ accountId: 'u-1', accountType: 'user' });
    expect(warnings).toEqual([]);
  });
});
