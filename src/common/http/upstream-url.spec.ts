import { AppException } from '../errors/app.exception';
import { pathSegment, upstreamUrl } from './upstream-url';

/** The 400 a call throws, or a failure when it throws nothing (or something else). */
function refusal(call: () => unknown): AppException {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    return error as AppException;
  }
  throw new Error('expected a refusal');
}

describe('pathSegment', () => {
  it('encodes ordinary ids, keeping `?`, `#`, quotes and non-ASCII inside the segment', () => {
    expect(pathSegment('kn_id', 'kn-001')).toBe('kn-001');
    expect(pathSegment('kn_id', 'admin?x=1#y')).toBe('admin%3Fx%3D1%23y');
    expect(pathSegment('kn_id', "kn'; DROP TABLE x;--")).toBe("kn'%3B%20DROP%20TABLE%20x%3B--");
    expect(pathSegment('ot_id', '订单')).toBe('%E8%AE%A2%E5%8D%95');
    expect(pathSegment('tool_id', 'v1.2')).toBe('v1.2');
    expect(pathSegment('tool_id', '...x')).toBe('...x');
    expect(pathSegment('path parameter "n"', 42)).toBe('42');
  });

  it('keeps a lone percent sign that decodes to nothing', () => {
    expect(pathSegment('q', '50%off')).toBe('50%25off');
  });

  it.each(['', '   ', undefined, null, {}])('refuses a missing id %p as required', (id) => {
    const error = refusal(() => pathSegment('kn_id', id));
    expect(error.status).toBe(400);
    expect(error.definition.code).toBe('agentRetrieval.BadRequest.ValidationRequired');
    expect(error.message).toBe('kn_id is required');
  });

  it.each([
    ['.', 'dots'],
    ['..', 'dots'],
    [' .. ', 'dots'],
    ['...', 'dots'],
    ['%2e%2e', 'dots'],
    ['%2E.', 'dots'],
    ['.%2e', 'dots'],
    ['%252e%252e', 'dots'],
    ['\uff0e\uff0e', 'dots'],
    ['\u2025', 'dots'],
    ['\u2024', 'dots'],
    ['\ufe52\ufe52', 'dots'],
    ['a/b', 'slash'],
    ['../admin', 'slash'],
    ['a%2Fb', 'slash'],
    ['a%2fb', 'slash'],
    ['a%252Fb', 'slash'],
    ['a\\b', 'slash'],
    ['..\\..\\etc', 'slash'],
    ['a%5Cb', 'slash'],
    ['\uff0fetc', 'slash'],
    ['a\u0000b', 'control'],
    ['a\nb', 'control'],
    ['.\t.', 'control'],
    ['a%0Db', 'control'],
    ['a\u007fb', 'control'],
    ['a\u0085b', 'control'],
  ])('refuses %p (%s) with a 400 naming the parameter', (id, why) => {
    const error = refusal(() => pathSegment('X-WeKnora-KB-IDs', id));
    expect(error.status).toBe(400);
    expect(error.definition.code).toBe('agentRetrieval.BadRequest.ValidationFormat');
    expect(String(error.details)).toMatch(/^X-WeKnora-KB-IDs /);
    const reason = { dots: /"\." or "\.\."/, slash: /single path segment/, control: /control characters/ }[why];
    expect(String(error.details)).toMatch(reason!);
  });
});

describe('upstreamUrl', () => {
  it('joins the base and the path', () => {
    expect(upstreamUrl('http://weknora:8080', '/api/v1/knowledge-search', 'weknora').href).toBe(
      'http://weknora:8080/api/v1/knowledge-search',
    );
    expect(upstreamUrl('http://aoi:9000/prefix/', 'x/y?a=1', 'aoi').href).toBe('http://aoi:9000/prefix/x/y?a=1');
    expect(upstreamUrl('http://h/base', '/base2/x', 'h').pathname).toBe('/base/base2/x');
  });

  it('lets a query hold what a path may not', () => {
    expect(upstreamUrl('http://h/api', '/x?next=../../admin&p=%2e%2e', 'h').search).toBe('?next=../../admin&p=%2e%2e');
  });

  it.each([
    ['/api/v1/knowledge-bases/../hybrid-search'],
    ['/api/v1/knowledge-bases/./hybrid-search'],
    ['/a/%2e%2e/b'],
    ['/a/.%2E/b'],
    ['/a/%2E/b'],
    ['/..'],
    ['/a\\..\\b'],
    ['/a/.\t./b'],
    ['/a/\n'],
  ])('refuses %p: URL parsing would resolve it elsewhere', (path) => {
    const error = refusal(() => upstreamUrl('http://weknora:8080/base', path, 'weknora'));
    expect(error.status).toBe(400);
    expect(String(error.details)).toContain('base path of weknora');
  });

  it('keeps authority-looking paths on the base host, under the base path', () => {
    for (const path of ['@evil.example/x', '//evil.example/x', '/http://evil.example/']) {
      const url = upstreamUrl('http://h:1/base', path, 'h');
      expect(url.origin).toBe('http://h:1');
      expect(url.pathname.startsWith('/base/')).toBe(true);
    }
  });
});
