import express from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { PrefilterRouter, prefilterRouteMatching } from './route-prefilter';

// Patterns shaped like the service's routes: literal, with parameters, a wildcard, an optional group.
const PATTERNS = [
  '/api/agent-retrieval/v1/kn/kn_search',
  '/api/agent-retrieval/in/v1/kn/kn_search',
  '/api/agent-retrieval/v1/mcp',
  '/api/agent-retrieval/v1/mcp/*path',
  '/api/agent-retrieval/in/v1/kn/networks/:kn_id/reload',
  '/api/agent-retrieval/in/v1/mcp/proxy/:mcp_id/tools/:tool_name/call',
  '/v1/chat/completions',
  '/v1/tools/:name/call',
  '/console/assets/:name',
  '/files{/:name}',
  '/a\\:b',
  '/',
];

// Paths built from the patterns' own pieces, so near misses (a prefix, another case, a trailing slash,
// an encoded character, an extra segment) are common.
const PIECES = [
  '/api',
  '/agent-retrieval',
  '/API',
  '/v1',
  '/in',
  '/kn',
  '/kn_search',
  '/mcp',
  '/networks',
  '/x',
  '/reload',
  '/proxy',
  '/tools',
  '/call',
  '/chat',
  '/completions',
  '/console',
  '/assets',
  '/files',
  '/a:b',
  '/a%3Ab',
  '/%E4%B8%AD',
  '/',
  '',
];

function routerOf(app: express.Express): PrefilterRouter {
  return (app as unknown as { router: PrefilterRouter }).router;
}

function exactApp(): express.Express {
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use((_req, _res, next) => next());
  for (const pattern of PATTERNS) app.post(pattern, (_req, res) => res.end());
  return app;
}

describe('prefilterRouteMatching', () => {
  it('wraps the route layers of a case-sensitive, strict router, once', () => {
    const router = routerOf(exactApp());
    expect(prefilterRouteMatching(router)).toBe(PATTERNS.length);
    expect(prefilterRouteMatching(router)).toBe(0);
  });

  it('leaves a router with loose matching alone', () => {
    const app = express();
    app.post('/v1/chat/completions', (_req, res) => res.end());
    expect(prefilterRouteMatching(routerOf(app))).toBe(0);
  });

  it('matches exactly what the matchers alone match, with the same params', () => {
    const plain = routerOf(exactApp());
    const filtered = routerOf(exactApp());
    prefilterRouteMatching(filtered);
    const outcome = (router: PrefilterRouter, path: string) =>
      router.stack.map((layer) => {
        try {
          return JSON.stringify(layer.match(path));
        } catch (error) {
          return `throws ${(error as Error).message}`;
        }
      });
    const paths = fc.oneof(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 9 }).map((pieces) => pieces.join('')),
      fc.constantFrom(...PATTERNS),
      fc.string(),
    );
    fc.assert(
      fc.property(paths, (path) => {
        expect(outcome(filtered, path)).toEqual(outcome(plain, path));
      }),
      { numRuns: 3000 },
    );
    for (const pattern of PATTERNS.filter((each) => !/[:*{\\]/.test(each))) {
      expect(outcome(filtered, pattern)).toEqual(outcome(plain, pattern));
    }
  });

  it('still routes requests: a late literal route and a parameterised one answer', async () => {
    const app = exactApp();
    app.get('/late/:id', (req, res) => res.json({ id: req.params.id }));
    prefilterRouteMatching(routerOf(app));
    await request(app).get('/late/a%20b').expect(200, { id: 'a b' });
    await request(app).post('/v1/chat/completions').expect(200);
    await request(app).post('/v1/chat/completions/').expect(404);
    await request(app).post('/V1/chat/completions').expect(404);
  });
});
