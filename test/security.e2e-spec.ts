/**
 * Route-table security sweep (SPEC §5), every route read from the router, against the built service in
 * its own process so its real logs can be read at the end. Extends route-security (access by matched
 * route), auth (introspection) and mcp-server-auth (the MCP challenge): every public route and /mcp under
 * every kind of bad credential, the ingress manifest against the route table, DNS-rebinding protection on
 * every route, the refusal to run unauthenticated off loopback, the exact headers each upstream receives,
 * and no secret in any log line the suite produced.
 */
import * as path from 'node:path';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../src/common/http/route-prefixes';
import { isChatErrorBody, isChatRoute, isErrorBody } from './fuzz/invariants';
import { startTestApp } from './support/app';
import { HttpPeer } from './support/http-peer';
import { ingressCouldServe, ingressPaths, ingressServes } from './support/ingress';
import { LlmStandin } from './support/llm-standin';
import { MCP_PATH } from './support/mcp-clients';
import { scratchDir } from './support/mcp-fixtures';
import { RawHttpClient, rawExchange, RawResponse } from './support/raw-http';
import { Route, routerRoutes } from './support/router-routes';
import {
  GOOD_TOKEN,
  WEKNORA_KEY,
  LLM_KEY,
  COOKIE,
  API_KEY,
  CUSTOM,
  PROXY_AUTH,
  SECRETS,
  BAD_CREDENTIALS,
  CRLF_HEADERS,
  FOREIGN_HEADERS,
  ALLOWED_UPSTREAM,
  TRANSPORT,
  hydra,
  answering,
} from './support/security-sweep';
import { runServiceExpectingExit, ServiceProcess, startServiceProcess } from './support/service-process';

type Access = 'public' | 'private' | 'open';

/** The access class the route table gives a path (route-security proves the guard agrees). */
function accessOf(route: Route): Access {
  if (route.path.startsWith(PUBLIC_PREFIX) || isChatRoute(route.path)) return 'public';
  return route.path.startsWith(PRIVATE_PREFIX) ? 'private' : 'open';
}

const where = (route: Route, what = ''): string => `${route.method} ${route.path}${what ? ` (${what})` : ''}`;

/** 401 with a Bearer challenge and the documented body (OpenAI's shape on the chat door). */
function expectChallenge(route: Route, what: string, response: RawResponse): void {
  const body = JSON.parse(response.text) as unknown;
  const seen = {
    route: where(route, what),
    status: response.status,
    challenge: /^Bearer realm="agent-retrieval"/.test(String(response.headers['www-authenticate'])),
    documented: isChatRoute(route.path) ? isChatErrorBody(body) : isErrorBody(body),
  };
  expect(seen).toEqual({ route: where(route, what), status: 401, challenge: true, documented: true });
}

describe('security sweep over the route table (SPEC §5)', () => {
  const scratch = scratchDir('security');
  const introspection = hydra();
  const bkn = answering({ entries: [], total_count: 0 });
  const ontologyQuery = answering({ datas: [] });
  const aoi = answering({ content: [{ type: 'text', text: 'ok' }], isError: false });
  const weknora = answering({ success: true, data: [] });
  const llm = new LlmStandin();
  const peers = [introspection, bkn, ontologyQuery, aoi, weknora, llm.peer];
  const logs: string[] = [];
  let env: Record<string, string>;
  let service: ServiceProcess;
  let loopback: ServiceProcess;
  let client: RawHttpClient;
  let routes: Route[];

  beforeAll(async () => {
    for (const peer of peers) await peer.start();
    env = {
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${introspection.url}/admin/oauth2/introspect`,
      AUTH_ISSUER_URL: 'https://auth.example.com',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_ENABLED: 'false',
      KN_BACKEND: 'kweaver',
      BKN_BACKEND_URL: bkn.url,
      ONTOLOGY_QUERY_URL: ontologyQuery.url,
      OPERATOR_BACKEND: 'kweaver',
      OPERATOR_INTEGRATION_URL: aoi.url,
      UPSTREAM_TIMEOUT_MS: '2000',
      KB_BACKEND: 'weknora',
      WEKNORA_BASE_URL: weknora.url,
      LLM_BASE_URL: llm.peer.url,
      LLM_API_KEY: LLM_KEY,
      LLM_MODEL: 'standin-model',
      WORKSPACE_ROOT: path.join(scratch.dir, 'workspaces'),
      DATA_DIR: path.join(scratch.dir, 'data'),
    };
    // The route table, read from the router of the same configuration booted in process (silent).
    const reader = await startTestApp({ ...env, LOG_LEVEL: 'silent' });
    routes = routerRoutes(reader);
    await reader.close();
    service = await startServiceProcess(env);
    loopback = await startServiceProcess({
      AUTH_MODE: 'none',
      LOG_LEVEL: 'debug',
      RATE_LIMIT_ENABLED: 'false',
      DATA_DIR: env.DATA_DIR,
    });
    client = new RawHttpClient(service.url);
  }, 120000);

  afterAll(async () => {
    client?.close();
    await service?.stop();
    await loopback?.stop();
    for (const peer of peers) await peer.stop();
    scratch.remove();
  });

  const publicRoutes = () => routes.filter((route) => accessOf(route) === 'public');

  it('reads public, private and open routes from the router, /mcp with GET, POST and DELETE among them', () => {
    const names = publicRoutes().map((route) => `${route.method} ${route.path}`);
    expect(names).toEqual(
      expect.arrayContaining([
        `GET ${MCP_PATH}`,
        `POST ${MCP_PATH}`,
        `DELETE ${MCP_PATH}`,
        'POST /v1/chat/completions',
        `POST ${PUBLIC_PREFIX}/kb/search`,
      ]),
    );
    expect(routes.filter((route) => accessOf(route) === 'private').length).toBeGreaterThan(10);
    expect(publicRoutes().length).toBeGreaterThan(20);
  });

  it('every public route and /mcp: each bad credential is 401 with WWW-Authenticate; the good token passes', async () => {
    let checked = 0;
    for (const route of publicRoutes()) {
      for (const [what, headers] of BAD_CREDENTIALS) {
        const response = await client.send(
          {
            method: route.method,
            path: route.path,
            headers: { ...headers, 'content-type': 'application/json' },
            body: Buffer.from('{}'),
          },
          10000,
        );
        expectChallenge(route, what, response);
        checked += 1;
      }
      const good = await client.send(
        {
          method: route.method,
          path: route.path,
          headers: { authorization: `Bearer ${GOOD_TOKEN}`, 'content-type': 'application/json' },
          body: Buffer.from('{}'),
        },
        10000,
      );
      expect({ route: where(route), refused: good.status === 401 || good.status === 403 }).toEqual({
        route: where(route),
        refused: false,
      });
    }
    expect(checked).toBe(publicRoutes().length * BAD_CREDENTIALS.length);
    // Hydra never saw an empty token or the Basic credentials: those fail before introspection.
    const introspected = new Set(
      introspection.requests.map((recorded) => new URLSearchParams(recorded.body).get('token')),
    );
    expect([...introspected].filter((token) => !token || token.includes('c3dlZXA'))).toEqual([]);
  });

  it('a token with CR/LF in the header never authenticates: the HTTP parser refuses it with the error body', async () => {
    for (const route of publicRoutes()) {
      for (const header of CRLF_HEADERS) {
        const answer = await rawExchange(
          service.url,
          `${route.method} ${route.path} HTTP/1.1\r\nHost: localhost\r\n${header}\r\nContent-Length: 0\r\n\r\n`,
        );
        const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
        expect({ route: where(route, JSON.stringify(header)), status, documented: isErrorBody(body) }).toEqual({
          route: where(route, JSON.stringify(header)),
          status: 400,
          documented: true,
        });
      }
    }
  });

  it('the ingress serves every public route and no private one', () => {
    const exposed = ingressPaths();
    expect(exposed.length).toBeGreaterThan(0);
    const uncovered = publicRoutes().filter((route) => !exposed.some((entry) => ingressServes(entry, route.path)));
    expect(uncovered.map((route) => where(route))).toEqual([]);
    const leaked = routes
      .filter((route) => accessOf(route) === 'private')
      .filter((route) =>
        exposed.some((entry) => ingressServes(entry, route.path) || ingressCouldServe(entry, route.path)),
      );
    expect(leaked.map((route) => where(route))).toEqual([]);
    // Probes, metrics and the API docs stay in the cluster too.
    for (const inside of ['/health/live', '/health/ready', '/metrics', '/api/agent-retrieval/docs'])
      expect({ inside, exposed: exposed.some((entry) => ingressServes(entry, inside)) }).toEqual({
        inside,
        exposed: false,
      });
  });

  it('unauthenticated on loopback: a foreign Host or Origin is 403 on every route, local names pass', async () => {
    const loopbackClient = new RawHttpClient(loopback.url);
    const port = new URL(loopback.url).port;
    const spoofs: Record<string, string>[] = [
      { host: 'evil.example.com' },
      { host: `evil.example.com:${port}` },
      { host: 'localhost.evil.example.com' },
      { host: '127.0.0.1.nip.io' },
      { host: `localhost:${port}`, origin: 'http://evil.example.com' },
      { host: `localhost:${port}`, origin: 'http://localhost.evil.example.com' },
      { host: `localhost:${port}`, origin: 'http://127.0.0.1@evil.example.com' },
      { host: `localhost:${port}`, origin: 'null' },
    ];
    try {
      for (const route of routes) {
        for (const headers of spoofs) {
          const response = await loopbackClient.send({ method: route.method, path: route.path, headers }, 10000);
          const body = JSON.parse(response.text) as { code?: string; error?: { code?: string } };
          const code = body.code ?? body.error?.code;
          expect({ route: where(route, JSON.stringify(headers)), status: response.status, code }).toEqual({
            route: where(route, JSON.stringify(headers)),
            status: 403,
            code: 'agentRetrieval.Forbidden.HostNotAllowed',
          });
        }
        for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
          const response = await loopbackClient.send(
            { method: route.method, path: route.path, headers: { host, origin: `http://${host}` } },
            10000,
          );
          expect({ route: where(route, host), status: response.status === 403 }).toEqual({
            route: where(route, host),
            status: false,
          });
        }
      }
    } finally {
      loopbackClient.close();
    }
  });

  it("upstreams receive the allow-listed headers only, the account from the token, none of the caller's secrets", async () => {
    for (const peer of peers) peer.requests.length = 0;
    const caller = { authorization: `Bearer ${GOOD_TOKEN}`, 'content-type': 'application/json', ...FOREIGN_HEADERS };
    const calls: [string, string, unknown, Record<string, string>?][] = [
      ['GET', `${PUBLIC_PREFIX}/kn/networks`, undefined],
      ['POST', `${PUBLIC_PREFIX}/kn/kn_search`, { kn_id: 'kn-sweep', query: '糖尿病' }],
      ['POST', `${PUBLIC_PREFIX}/kn/query_object_instance?kn_id=kn-sweep&ot_id=patient`, { limit: 1 }],
      ['POST', `${PUBLIC_PREFIX}/kb/search`, { query: 'leave policy' }, { 'x-weknora-api-key': WEKNORA_KEY }],
      ['POST', '/v1/chat/completions', { messages: [{ role: 'user', content: 'hi' }] }],
      [
        'POST',
        MCP_PATH,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'kn_search', arguments: { query: 'x', kn_id: 'kn-sweep' } },
        },
        { accept: 'application/json, text/event-stream' },
      ],
      // Private: the account comes from the caller's x-account-* headers, which are then forwarded.
      [
        'POST',
        `${PRIVATE_PREFIX}/mcp/proxy/mcp-1/tools/echo/call`,
        { text: 'x' },
        { 'x-account-id': 'internal-caller' },
      ],
    ];
    for (const [method, target, body, extra] of calls) {
      const response = await client.send(
        {
          method,
          path: target,
          headers: { ...caller, ...extra },
          body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
        },
        10000,
      );
      expect({ target, status: response.status < 500 || response.status === 502 }).toEqual({ target, status: true });
    }
    const upstreams: [keyof typeof ALLOWED_UPSTREAM, string, HttpPeer][] = [
      ['kweaver', 'bkn-backend', bkn],
      ['kweaver', 'ontology-query', ontologyQuery],
      ['kweaver', 'agent-operator-integration', aoi],
      ['weknora', 'WeKnora', weknora],
      ['llm', 'model endpoint', llm.peer],
    ];
    const never = [
      COOKIE,
      API_KEY,
      GOOD_TOKEN,
      CUSTOM,
      PROXY_AUTH,
      'evil.example.com',
      '203.0.113.9',
      'spoofed-account',
    ];
    for (const [kind, name, peer] of upstreams) {
      expect({ name, reached: peer.requests.length > 0 }).toEqual({ name, reached: true });
      for (const recorded of peer.requests) {
        const names = Object.keys(recorded.headers);
        const unexpected = names.filter(
          (header) => !ALLOWED_UPSTREAM[kind].includes(header) && !TRANSPORT.includes(header),
        );
        const values = Object.values(recorded.headers).join('\n');
        expect({ name, unexpected, secrets: never.filter((secret) => values.includes(secret)) }).toEqual({
          name,
          unexpected: [],
          secrets: [],
        });
        if (kind === 'kweaver') expect(['sweeper', 'internal-caller']).toContain(recorded.headers['x-account-id']);
        if (kind === 'weknora') expect(recorded.headers['x-api-key']).toBe(WEKNORA_KEY);
        if (kind === 'llm') expect(recorded.headers.authorization).toBe(`Bearer ${LLM_KEY}`);
      }
    }
  });

  it.each(['0.0.0.0', '::', '192.0.2.10'])(
    'AUTH_MODE=none on HOST=%s: the built service refuses to start',
    async (host) => {
      const { code, output } = await runServiceExpectingExit({
        AUTH_MODE: 'none',
        HOST: host,
        PORT: '0',
        LOG_LEVEL: 'debug',
      });
      logs.push(output);
      expect(code).toBe(1);
      expect(output).toContain(`AUTH_MODE=none is refused on HOST=${host}`);
      await expect(startTestApp({ AUTH_MODE: 'none', HOST: host })).rejects.toThrow(/AUTH_MODE=none is refused/);
    },
  );

  it('the logs of the whole suite hold no token, API key or Authorization value', async () => {
    await service.stop();
    await loopback.stop();
    const all = [service.output(), loopback.output(), ...logs].join('\n');
    // The capture is real: debug lines of the requests above are in it.
    expect(all).toContain(`"url":"${PUBLIC_PREFIX}/kn/kn_search"`);
    expect(all.split('\n').filter((line) => line.startsWith('{"level"')).length).toBeGreaterThan(500);
    for (const secret of SECRETS) expect({ secret, logged: all.includes(secret) }).toEqual({ secret, logged: false });
    expect(all).not.toMatch(/authorization"?\s*[:=]\s*"?(Bearer|Basic)\s/i);
  });
});
