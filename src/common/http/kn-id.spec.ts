import { AppException } from '../errors/app.exception';
import { KN_ID_REQUIRED, resolveKnId } from './kn-id';

describe('resolveKnId', () => {
  const headers = (knId?: string | string[]) => (knId === undefined ? {} : { 'x-kn-id': knId });

  it('takes the body (or tool arguments), then the query string, then X-Kn-ID', () => {
    expect(resolveKnId({ body: { kn_id: 'body' }, query: { kn_id: 'query' }, headers: headers('header') })).toBe(
      'body',
    );
    expect(resolveKnId({ body: { kn_id: '  ' }, query: { kn_id: 'query' }, headers: headers('header') })).toBe('query');
    expect(resolveKnId({ body: {}, query: {}, headers: headers('header') })).toBe('header');
    expect(resolveKnId({ body: { kn_id: 7 }, headers: headers(['first', 'second']) })).toBe('first');
    expect(resolveKnId({ body: { kn_id: ' padded ' } })).toBe('padded');
  });

  it('answers a missing kn_id with the documented sentence, and bounds its length', () => {
    for (const sources of [
      {},
      { body: { kn_id: '' }, query: { kn_id: ' ' }, headers: headers('') },
      { body: 'text' },
    ]) {
      expect(() => resolveKnId(sources)).toThrow(AppException);
      expect(() => resolveKnId(sources)).toThrow(KN_ID_REQUIRED);
    }
    expect(() => resolveKnId({ body: { kn_id: 'k'.repeat(257) } })).toThrow(AppException);
  });
});
