import { AppException } from '../../common/errors/app.exception';
import { pathSegment } from './path-segment';

describe('pathSegment', () => {
  it('encodes hostile ids so they stay inside one segment', () => {
    expect(pathSegment('kn_id', '../../admin?x=1#y')).toBe('..%2F..%2Fadmin%3Fx%3D1%23y');
    expect(pathSegment('kn_id', "kn'; DROP TABLE x;--")).toBe("kn'%3B%20DROP%20TABLE%20x%3B--");
    expect(pathSegment('ot_id', '订单')).toBe('%E8%AE%A2%E5%8D%95');
  });

  it.each(['', '   ', '.', '..'])('refuses %p with a 400', (id) => {
    expect(() => pathSegment('kn_id', id)).toThrow(AppException);
    try {
      pathSegment('kn_id', id);
    } catch (error) {
      expect((error as AppException).status).toBe(400);
      expect((error as AppException).message).toContain('kn_id');
    }
  });
});
