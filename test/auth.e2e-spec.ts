import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';

const WHOAMI = '/api/agent-retrieval/v1/auth/whoami';

/** Plays Ory Hydra's admin introspection endpoint (RFC 7662). */
function hydra(tokens: Record<string, Record<string, unknown>>) {
  return (request: RecordedRequest, response: ServerResponse) => {
    if (request.method !== 'POST' || request.url !== '/admin/oauth2/introspect') return sendJson(response, 404, {});
    const token = new URLSearchParams(request.body).get('token') ?? '';
    sendJson(response, 200, tokens[token] ?? { active: false });
  };
}

describe('public auth with AUTH_MODE=introspect (e2e)', () => {
  const future = () => Math.floor(Date.now() / 1000) + 3600;
  const peer = new HttpPeer(
    hydra({
      'user-token': { active: true, sub: 'u-1', client_id: 'web', exp: future(), ext: { visitor_type: 'realname' } },
      'app-token': { active: true, sub: 'svc-1', client_id: 'svc-1', exp: future() },
      'business-token': { active: true, sub: 'biz-1', client_id: 'portal', ext: { visitor_type: 'business' } },
      'anon-token': { active: true, sub: 'a-1', client_id: 'web', ext: { visitor_type: 'anonymous' } },
      // Active answers that name no usable account (issue 31 item 3).
      'empty-sub': { active: true, sub: '', client_id: 'web', exp: future(), ext: { visitor_type: 'realname' } },
      'no-sub': { active: true, client_id: 'web', exp: future() },
      'array-sub': { active: true, sub: ['acctA'], client_id: 'web', exp: future() },
      'blank-sub': { active: true, sub: '   ', client_id: 'web', exp: future() },
      'number-client': { active: true, sub: 'u-2', client_id: 7, exp: future() },
      'empty-client': { active: true, sub: 'u-3', client_id: '', exp: future() },
    }),
  );
  let app: TestApp;

  beforeAll(async () => {
    await peer.start();
    app = await startTestApp({ AUTH_MODE: 'introspect', INTROSPECT_URL: `${peer.url}/admin/oauth2/introspect` });
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
  });

  beforeEach(() => {
    peer.requests.length = 0;
  });

  it('missing token → 401 with WWW-Authenticate: Bearer and the error body', async () => {
    const response = await request(app.url).get(WHOAMI).set('X-Language', 'en-US').expect(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(response.body).toMatchObject({
      code: 'agentRetrieval.Unauthorized.TokenMissing',
      description: 'No access token was sent',
    });
    expect(peer.requests).toHaveLength(0);
  });

  it('inactive token → 401 with error="invalid_token"', async () => {
    const response = await request(app.url).get(WHOAMI).set('Authorization', 'Bearer nope').expect(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(response.body.code).toBe('agentRetrieval.Unauthorized.TokenInactive');
  });

  it('posts the token form-encoded to the introspection endpoint', async () => {
    await request(app.url).get(WHOAMI).set('Authorization', 'Bearer user-token').expect(200);
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(peer.requests[0].body).toBe('token=user-token');
  });

  it.each([
    ['user-token', { account_id: 'u-1', account_type: 'user' }],
    ['app-token', { account_id: 'svc-1', account_type: 'app' }],
    ['business-token', { account_id: 'biz-1', account_type: 'app' }],
    ['anon-token', { account_id: 'a-1', account_type: 'anonymous' }],
  ])('active %s passes with the account context filled', async (token, expected) => {
    const response = await request(app.url).get(WHOAMI).set('Authorization', `Bearer ${token}`).expect(200);
    expect(response.body).toEqual(expected);
  });

  it.each(['empty-sub', 'no-sub', 'array-sub', 'blank-sub', 'number-client', 'empty-client'])(
    'an active token whose answer names no usable account (%s) → 401, never account ""',
    async (token) => {
      const response = await request(app.url).get(WHOAMI).set('Authorization', `Bearer ${token}`).expect(401);
      expect(response.body.code).toBe('agentRetrieval.Unauthorized.TokenInactive');
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    },
  );

  it('accepts X-Authorization with or without the Bearer word', async () => {
    await request(app.url).get(WHOAMI).set('X-Authorization', 'Bearer user-token').expect(200);
    await request(app.url).get(WHOAMI).set('X-Authorization', 'user-token').expect(200);
  });

  it('a second request with the same token within the cache window makes no second introspection call', async () => {
    await request(app.url).get(WHOAMI).set('Authorization', 'Bearer business-token').expect(200);
    const before = peer.requests.length;
    await request(app.url).get(WHOAMI).set('Authorization', 'Bearer business-token').expect(200);
    expect(peer.requests.length).toBe(before);
  });

  it('private routes need no token', async () => {
    const response = await request(app.url)
      .get('/api/agent-retrieval/in/v1/auth/whoami')
      .set('x-account-id', 'internal')
      .set('x-account-type', 'app')
      .expect(200);
    expect(response.body).toEqual({ account_id: 'internal', account_type: 'app' });
    expect(peer.requests).toHaveLength(0);
  });

  it('a private route without x-account-id (or with a blank one) → 401, never account ""', async () => {
    const missing = await request(app.url)
      .get('/api/agent-retrieval/in/v1/auth/whoami')
      .set('x-account-type', 'app')
      .set('X-Language', 'en-US')
      .expect(401);
    expect(missing.body).toMatchObject({
      code: 'agentRetrieval.Unauthorized.AccountMissing',
      description: 'The private route was called without an account',
    });
    await request(app.url).get('/api/agent-retrieval/in/v1/auth/whoami').set('x-account-id', ' ').expect(401);
  });

  it('health and metrics stay open', async () => {
    await request(app.url).get('/health/live').expect(200);
    await request(app.url).get('/metrics').expect(200);
  });
});

describe('callers the guard refuses count against their IP (e2e)', () => {
  const peer = new HttpPeer(
    hydra({ 'user-token': { active: true, sub: 'u-1', client_id: 'web', ext: { visitor_type: 'realname' } } }),
  );
  let app: TestApp;

  beforeAll(async () => {
    await peer.start();
    app = await startTestApp({
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${peer.url}/admin/oauth2/introspect`,
      RATE_LIMIT_MAX: '3',
    });
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
  });

  it('made-up tokens spend the IP bucket, then get 429 without an introspection call; a known token still passes', async () => {
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });
    const statusWith = async (token: string) => (await request(app.url).get(WHOAMI).set(as(token))).status;
    await request(app.url).get(WHOAMI).set(as('user-token')).expect(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await statusWith(`made-up-${i}`));
    // Three refusals spend the bucket; the fourth is introspected, counted and refused with 429; after
    // that no made-up token is sent to the authority.
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
    expect(peer.requests.map((call) => call.body)).toEqual([
      'token=user-token',
      'token=made-up-0',
      'token=made-up-1',
      'token=made-up-2',
      'token=made-up-3',
    ]);
    const limited = await request(app.url).get(WHOAMI).expect(429);
    expect(limited.body.code).toBe('Public.TooManyRequests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await request(app.url).get(WHOAMI).set(as('user-token')).expect(200);
    await request(app.url).get('/health/live').expect(200);
  });
});

describe('introspection outage (e2e)', () => {
  const peer = new HttpPeer((_request, response) => sendJson(response, 500, { error: 'boom' }));
  let app: TestApp;
  let downUrl: string;

  beforeAll(async () => {
    downUrl = await peer.start();
    await peer.stop();
    app = await startTestApp({
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${downUrl}/admin/oauth2/introspect`,
      INTROSPECT_TIMEOUT_MS: '500',
    });
  });

  afterAll(async () => {
    await app.close();
  });

  it('introspection server down → 503, never a pass', async () => {
    const response = await request(app.url).get(WHOAMI).set('Authorization', 'Bearer anything').expect(503);
    expect(response.body.code).toBe('agentRetrieval.ServiceUnavailable.IntrospectionUnavailable');
    expect(JSON.stringify(response.body)).not.toContain('anything');
  });

  it('an introspection endpoint answering 500 → 503', async () => {
    const failing = new HttpPeer((_request, response) => sendJson(response, 500, { error: 'boom' }));
    await failing.start();
    const other = await startTestApp({
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${failing.url}/admin/oauth2/introspect`,
    });
    try {
      const response = await request(other.url).get(WHOAMI).set('Authorization', 'Bearer t').expect(503);
      expect(response.body.code).toBe('agentRetrieval.ServiceUnavailable.IntrospectionUnavailable');
    } finally {
      await other.close();
      await failing.stop();
    }
  });
});

describe('AUTH_MODE=static (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'dev-secret=alice:user' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('accepts a configured token and rejects others', async () => {
    const ok = await request(app.url).get(WHOAMI).set('Authorization', 'Bearer dev-secret').expect(200);
    expect(ok.body).toEqual({ account_id: 'alice', account_type: 'user' });
    await request(app.url).get(WHOAMI).set('Authorization', 'Bearer dev-secreT').expect(401);
  });
});
