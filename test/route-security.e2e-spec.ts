import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ROUTE_ACCESS } from '../src/common/http/route-access';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../src/common/http/route-prefixes';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';
import { MCP_PATH } from './support/mcp-clients';
import { Route, routerRoutes } from './support/router-routes';

const RPC_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
const TOOL_CALL = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'query_object_instance', arguments: { kn_id: 'clinic', ot_id: 'patient' } },
};

/** Three spellings of the route that differ only in letter case, in its prefix when it has one. */
function caseVariants(path: string): string[] {
  const prefixed = (prefix: string, spellings: string[]) =>
    spellings.map((spelling) => `${spelling}${path.slice(prefix.length)}`);
  if (path.startsWith(PRIVATE_PREFIX)) {
    return prefixed(PRIVATE_PREFIX, [
      '/API/agent-retrieval/in/v1',
      '/api/agent-retrieval/IN/v1',
      '/api/Agent-Retrieval/in/v1',
    ]);
  }
  if (path.startsWith(PUBLIC_PREFIX)) {
    return prefixed(PUBLIC_PREFIX, ['/API/agent-retrieval/v1', '/api/AGENT-RETRIEVAL/v1', '/api/agent-retrieval/V1']);
  }
  const segments = path.split('/');
  const capitalised = segments.map((segment, i) =>
    i === 1 ? segment.charAt(segment.length - 1).toUpperCase() + segment.slice(0, -1) : segment,
  );
  return [
    path.toUpperCase(),
    segments.map((segment, i) => (i === 1 ? segment.toUpperCase() : segment)).join('/'),
    capitalised.join('/'),
  ].filter((variant) => variant !== path);
}

/** A controller with at least one HTTP route handler (MCP tool classes are controllers too, without routes). */
function servesHttp(controller: new () => unknown): boolean {
  for (
    let proto: object | null = controller.prototype as object;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const member = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (typeof member === 'function' && Reflect.getMetadata(METHOD_METADATA, member) !== undefined) return true;
    }
  }
  return false;
}

function send(app: TestApp, route: Route, path = route.path): request.Test {
  const agent = request(app.url);
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete' | 'patch';
  return agent[method](path);
}

describe('access comes from the matched route (D1)', () => {
  let app: TestApp;
  let routes: Route[];

  beforeAll(async () => {
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'secret=alice:user',
      RATE_LIMIT_ENABLED: 'false',
    });
    routes = routerRoutes(app);
  });

  afterAll(async () => {
    await app.close();
  });

  it('finds the routes of every prefix in the router', () => {
    const paths = routes.map((route) => route.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        `${PUBLIC_PREFIX}/kn/networks`,
        `${PRIVATE_PREFIX}/kn/networks`,
        MCP_PATH,
        '/health/live',
        '/metrics',
      ]),
    );
    expect(routes.length).toBeGreaterThan(30);
  });

  it('answers every case variant of every route (and a trailing slash on API routes) with 404 — never 2xx', async () => {
    const seen: string[] = [];
    for (const route of routes) {
      const api = route.path.startsWith(PUBLIC_PREFIX) || route.path.startsWith(PRIVATE_PREFIX);
      // A path under the MCP endpoint with a trailing slash is one of the endpoint's own sub-paths.
      const mcpSubPath = route.path.startsWith(`${MCP_PATH}/`);
      const slash = api && !route.wildcard && !mcpSubPath ? [`${route.path}/`] : [];
      for (const variant of [...caseVariants(route.path), ...slash]) {
        const response = await send(app, route, variant);
        seen.push(`${route.method} ${variant} → ${response.status}`);
        expect({ route: `${route.method} ${variant}`, status: response.status }).toEqual({
          route: `${route.method} ${variant}`,
          status: 404,
        });
        expect(response.body.code).toBe('Public.NotFound');
      }
    }
    expect(seen.length).toBeGreaterThanOrEqual(routes.length * 3);
  });

  it('asks for a token on every public route, and on no private or open one', async () => {
    for (const route of routes) {
      // A private route's in-cluster caller names its account (without x-account-id it is 401 AccountMissing).
      const response = await send(app, route).set(route.path.startsWith(PRIVATE_PREFIX) ? INTERNAL_CALLER : {});
      const where = `${route.method} ${route.path}`;
      // The OpenAI-compatible chat door is public too, outside the prefix (SPEC §3).
      const chat = route.path === '/api/chat/completions' || route.path.startsWith('/v1/');
      if (route.path.startsWith(PUBLIC_PREFIX) || chat)
        expect({ where, status: response.status }).toEqual({ where, status: 401 });
      else expect({ where, status: response.status }).not.toEqual({ where, status: 401 });
    }
  });

  it('refuses the probe’s exact requests', async () => {
    await request(app.url).get('/API/agent-retrieval/v1/kn/networks').expect(404);
    await request(app.url).get('/api/AGENT-RETRIEVAL/v1/auth/whoami').expect(404);
    const mcp = await request(app.url).post('/api/agent-retrieval/V1/mcp').set(RPC_HEADERS).send(TOOL_CALL).expect(404);
    expect(JSON.stringify(mcp.body)).not.toContain('patient');
    await request(app.url).get(`${PUBLIC_PREFIX}/auth/whoami`).set('Authorization', 'Bearer secret').expect(200);
  });

  it('every HTTP controller in the application declares its access class', () => {
    const controllers = [...app.app.get(ModulesContainer).values()]
      .flatMap((module) => [...module.controllers.values()])
      .map((wrapper) => wrapper.metatype as new () => unknown)
      .filter(servesHttp);
    expect(controllers.length).toBeGreaterThan(8);
    const undeclared = controllers.filter((controller) => Reflect.getMetadata(ROUTE_ACCESS, controller) === undefined);
    expect(undeclared.map((controller) => controller.name)).toEqual([]);
  });
});

describe('the same under AUTH_MODE=introspect (D1)', () => {
  const hydra = new HttpPeer((_request: RecordedRequest, response: ServerResponse) =>
    sendJson(response, 200, { active: false }),
  );
  let app: TestApp;

  beforeAll(async () => {
    await hydra.start();
    app = await startTestApp({ AUTH_MODE: 'introspect', INTROSPECT_URL: `${hydra.url}/admin/oauth2/introspect` });
  });

  afterAll(async () => {
    await app.close();
    await hydra.stop();
  });

  it('404 for the case variants, 401 for the real path, and Hydra is never asked without a token', async () => {
    await request(app.url).get('/API/agent-retrieval/v1/kn/networks').expect(404);
    await request(app.url).post('/api/agent-retrieval/V1/mcp').set(RPC_HEADERS).send(TOOL_CALL).expect(404);
    await request(app.url).get('/api/AGENT-RETRIEVAL/v1/auth/whoami').expect(404);
    await request(app.url).get(`${PUBLIC_PREFIX}/kn/networks`).expect(401);
    expect(hydra.requests).toHaveLength(0);
  });
});

describe('rate limits: one bucket per account across routes (D7)', () => {
  let app: TestApp;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'token-a=alice:user,token-b=bob:user',
      RATE_LIMIT_MAX: '5',
    });
  });

  afterAll(async () => {
    await app.close();
  });

  it('after /kn/networks used the budget, every other route says 429 to that account only', async () => {
    for (let i = 0; i < 5; i++)
      await request(app.url).get(`${PUBLIC_PREFIX}/kn/networks`).set(as('token-a')).expect(200);
    const limited = await request(app.url).get(`${PUBLIC_PREFIX}/kn/networks`).set(as('token-a')).expect(429);
    expect(limited.body.code).toBe('Public.TooManyRequests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await request(app.url)
      .post(`${PUBLIC_PREFIX}/kn/kn_search`)
      .set(as('token-a'))
      .send({ kn_id: 'clinic', query: '糖尿病' })
      .expect(429);
    await request(app.url).get(`${PUBLIC_PREFIX}/auth/whoami`).set(as('token-a')).expect(429);
    await request(app.url)
      .post(MCP_PATH)
      .set({ ...RPC_HEADERS, ...as('token-a') })
      .send(TOOL_CALL)
      .expect(429);
    await request(app.url).get(`${PUBLIC_PREFIX}/auth/whoami`).set(as('token-b')).expect(200);
    await request(app.url).get('/health/live').expect(200);
    await request(app.url).get('/metrics').expect(200);
  });
});

describe('forwarded-for headers count only from configured proxies (D10)', () => {
  const anonymousBurst = async (app: TestApp, count: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const response = await request(app.url)
        .get(`${PUBLIC_PREFIX}/kn/networks`)
        .set('X-Forwarded-For', `203.0.113.${i + 1}`);
      statuses.push(response.status);
    }
    return statuses;
  };

  it('TRUST_PROXY unset: a rotating X-Forwarded-For is ignored and the socket address is limited', async () => {
    const app = await startTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      expect(await anonymousBurst(app, 5)).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await app.close();
    }
  });

  it('TRUST_PROXY=loopback: the proxy’s X-Forwarded-For names the client', async () => {
    const app = await startTestApp({ RATE_LIMIT_MAX: '3', TRUST_PROXY: 'loopback' });
    try {
      expect(await anonymousBurst(app, 5)).toEqual([200, 200, 200, 200, 200]);
    } finally {
      await app.close();
    }
  });

  it('refuses a TRUST_PROXY Express cannot read, naming the variable', async () => {
    await expect(startTestApp({ TRUST_PROXY: 'not-an-address' })).rejects.toThrow(/TRUST_PROXY must be/);
  });
});

describe('one Host header per request (D9)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  /** Raw HTTP/1.1, since HTTP clients merge or refuse repeated Host headers themselves. */
  function rawRequest(head: string): Promise<string> {
    const { port } = new URL(app.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(head));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it('Host: localhost plus Host: evil.com → 400 with the error body', async () => {
    const answer = await rawRequest(
      'GET /health/live HTTP/1.1\r\nHost: localhost\r\nHost: evil.com\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; details: string };
    expect(body).toMatchObject({ code: 'Public.BadRequest', details: 'a request must carry exactly one Host header' });
  });

  it('a single Host still answers', async () => {
    const answer = await rawRequest('GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
