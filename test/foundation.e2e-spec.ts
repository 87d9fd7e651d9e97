import request from 'supertest';
import { decodeToon } from '../src/common/response-format/toon';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';

const PRIVATE = '/api/agent-retrieval/in/v1';
const PUBLIC = '/api/agent-retrieval/v1';

function expectErrorBody(body: Record<string, unknown>, code: string): void {
  expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['code', 'description', 'solution', 'link']));
  expect(body.code).toBe(code);
  expect(typeof body.description).toBe('string');
  expect(typeof body.solution).toBe('string');
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/);
}

describe('foundation (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  describe('health', () => {
    it('answers liveness without touching upstreams', async () => {
      const response = await request(app.url).get('/health/live').expect(200);
      expect(response.body).toEqual({ status: 'ok' });
    });

    it('serves the /health/alive alias, readiness and the detail view', async () => {
      await request(app.url).get('/health/alive').expect(200, { status: 'ok' });
      const ready = await request(app.url).get('/health/ready').expect(200);
      expect(ready.body.status).toBe('ok');
      const detail = await request(app.url).get('/health').expect(200);
      expect(detail.body.details.lifecycle).toEqual({ status: 'up', state: 'serving' });
    });
  });

  describe('request ids', () => {
    it('generates one when absent and echoes a well-formed one', async () => {
      const generated = await request(app.url).get('/health/live');
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const echoed = await request(app.url).get('/health/live').set('X-Request-Id', 'trace-abc.123');
      expect(echoed.headers['x-request-id']).toBe('trace-abc.123');
    });

    it('replaces a hostile request id instead of reflecting it', async () => {
      const response = await request(app.url).get('/health/live').set('X-Request-Id', '<script>alert(1)</script>');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('is present on error responses too', async () => {
      const response = await request(app.url).get(`${PRIVATE}/nope`).expect(404);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const echoed = await request(app.url).get(`${PRIVATE}/nope`).set('X-Request-Id', 'trace-404').expect(404);
      expect(echoed.headers['x-request-id']).toBe('trace-404');
    });
  });

  describe('errors in two languages', () => {
    it('gives English and Chinese description/solution for the same error', async () => {
      const english = await request(app.url).get(`${PRIVATE}/missing`).set('X-Language', 'en-US').expect(404);
      const chinese = await request(app.url).get(`${PRIVATE}/missing`).set('X-Language', 'zh-CN').expect(404);
      expectErrorBody(english.body, 'Public.NotFound');
      expectErrorBody(chinese.body, 'Public.NotFound');
      expect(english.body.description).toBe('Resource not found');
      expect(chinese.body.description).toBe('对象不存在');
      expect(english.body.solution).not.toBe(chinese.body.solution);
      expect(english.body.details).toBe(`no route for GET ${PRIVATE}/missing`);
      expect(chinese.body.details).toBe(`没有与 GET ${PRIVATE}/missing 匹配的路由`);
    });

    it('accepts underscore spellings and Accept-Language, defaulting to en-US (DEFAULT_LANGUAGE)', async () => {
      const underscore = await request(app.url).get('/nope').set('X-Language', 'zh_cn').expect(404);
      expect(underscore.body.link).toBe('无');
      const accept = await request(app.url).get('/nope').set('Accept-Language', 'en-GB,en;q=0.9').expect(404);
      expect(accept.body.description).toBe('Resource not found');
      const fallback = await request(app.url).get('/nope').expect(404);
      expect(fallback.body.link).toBe('None');
    });
  });

  describe('bad input never yields a 500', () => {
    it('malformed JSON → 400', async () => {
      const response = await request(app.url)
        .post(`${PRIVATE}/kn/kn_search`)
        .set(INTERNAL_CALLER)
        .set('Content-Type', 'application/json')
        .set('X-Language', 'en-US')
        .send('{"query": "x",')
        .expect(400);
      expectErrorBody(response.body, 'agentRetrieval.BadRequest.InvalidJson');
      expect(response.body.details).toBe('request body is not valid JSON');
    });

    it('a 10 MB body → 413', async () => {
      const huge = JSON.stringify({ query: 'x'.repeat(10 * 1024 * 1024) });
      const response = await request(app.url)
        .post(`${PRIVATE}/kn/kn_search`)
        .set(INTERNAL_CALLER)
        .set('Content-Type', 'application/json')
        .send(huge)
        .expect(413);
      expectErrorBody(response.body, 'Public.PayloadTooLarge');
    });

    it('an unknown route → 404, a known path with the wrong method → 405 with Allow', async () => {
      const notFound = await request(app.url).delete(`${PUBLIC}/definitely/not/here`).expect(404);
      expectErrorBody(notFound.body, 'Public.NotFound');
      const wrongMethod = await request(app.url).delete(`${PRIVATE}/auth/whoami`).expect(405);
      expectErrorBody(wrongMethod.body, 'Public.MethodNotAllowed');
      expect(wrongMethod.headers.allow).toContain('GET');
    });

    it('path traversal and hostile strings in the URL are just unknown routes', async () => {
      const response = await request(app.url).get(`${PRIVATE}/..%2f..%2fetc%2fpasswd`).expect(404);
      expectErrorBody(response.body, 'Public.NotFound');
      const bad = await request(app.url).get(`${PRIVATE}/%E0%A4%A`).expect(400);
      expectErrorBody(bad.body, 'Public.BadRequest');
    });
  });

  describe('response_format', () => {
    it('json by default, toon on request, 400 for anything else, errors always JSON', async () => {
      const json = await request(app.url).get(`${PRIVATE}/auth/whoami`).set('x-account-id', 'u1').expect(200);
      expect(json.headers['content-type']).toMatch(/application\/json/);
      expect(json.body).toEqual({ account_id: 'u1', account_type: '' });
      const toon = await request(app.url)
        .get(`${PRIVATE}/auth/whoami?response_format=toon`)
        .set('x-account-id', 'u1')
        .set('x-account-type', 'user')
        .expect(200);
      expect(toon.headers['content-type']).toMatch(/application\/toon/);
      expect(decodeToon(toon.text)).toEqual({ account_id: 'u1', account_type: 'user' });
      const invalid = await request(app.url)
        .get(`${PRIVATE}/auth/whoami?response_format=xml`)
        .set(INTERNAL_CALLER)
        .expect(400);
      expect(invalid.headers['content-type']).toMatch(/application\/json/);
      expectErrorBody(invalid.body, 'agentRetrieval.BadRequest.InvalidResponseFormat');
      expect(invalid.body.details).toBe('invalid response_format: "xml" (allowed: json, toon)');
    });
  });

  describe('private route account context', () => {
    it('takes user_id over x-account-id, and x-account-type', async () => {
      const response = await request(app.url)
        .get(`${PRIVATE}/auth/whoami`)
        .set('x-account-id', 'from-header')
        .set('user_id', 'from-user-id')
        .set('x-account-type', 'app')
        .expect(200);
      expect(response.body).toEqual({ account_id: 'from-user-id', account_type: 'app' });
    });
  });

  describe('metrics', () => {
    it('exposes the HTTP histogram by route template, not raw URL', async () => {
      await request(app.url).get(`${PRIVATE}/auth/whoami`).set(INTERNAL_CALLER).expect(200);
      await request(app.url).get(`${PRIVATE}/nope/123`).expect(404);
      const response = await request(app.url).get('/metrics').expect(200);
      expect(response.headers['content-type']).toMatch(/text\/plain/);
      expect(response.text).toContain('# TYPE agent_retrieval_http_request_duration_seconds histogram');
      expect(response.text).toMatch(
        /agent_retrieval_http_request_duration_seconds_count\{method="GET",route="\/api\/agent-retrieval\/in\/v1\/auth\/whoami",status_code="200"\} \d+/,
      );
      expect(response.text).toMatch(/route="unmatched",status_code="404"/);
      expect(response.text).not.toContain('/nope/123');
      expect(response.text).toContain('process_cpu_user_seconds_total');
    });
  });

  describe('OpenAPI', () => {
    it('serves the JSON document with the bearer scheme and the error body schema', async () => {
      const response = await request(app.url).get('/api/agent-retrieval/docs-json').expect(200);
      expect(response.body.openapi).toMatch(/^3\./);
      expect(response.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(response.body.components.schemas.ErrorBodyDto.required).toEqual(
        expect.arrayContaining(['code', 'description', 'solution', 'link']),
      );
      await request(app.url).get('/api/agent-retrieval/docs').expect(200);
    });
  });

  describe('DNS-rebinding protection without auth on loopback', () => {
    it('rejects a foreign Host or Origin with 403 and serves a local one', async () => {
      const foreign = await request(app.url)
        .get(`${PUBLIC}/auth/whoami`)
        .set('Host', 'evil.example.com')
        .set('Origin', 'http://evil.example.com')
        .expect(403);
      expectErrorBody(foreign.body, 'agentRetrieval.Forbidden.HostNotAllowed');
      const port = new URL(app.url).port;
      await request(app.url).get(`${PUBLIC}/auth/whoami`).set('Host', `127.0.0.1:${port}`).expect(200);
      await request(app.url)
        .get(`${PUBLIC}/auth/whoami`)
        .set('Host', `localhost:${port}`)
        .set('Origin', 'http://localhost:3000')
        .expect(200);
    });
  });
});

describe('rate limiting (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_TTL_S: '60' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers 429 in the standard body past the limit, per account', async () => {
    for (let i = 0; i < 3; i += 1) {
      await request(app.url).get(`${PRIVATE}/auth/whoami`).set('x-account-id', 'busy').expect(200);
    }
    const limited = await request(app.url).get(`${PRIVATE}/auth/whoami`).set('x-account-id', 'busy').expect(429);
    expectErrorBody(limited.body, 'Public.TooManyRequests');
    // Whole seconds until the 60 s window that was exceeded ends.
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    await request(app.url).get(`${PRIVATE}/auth/whoami`).set('x-account-id', 'quiet').expect(200);
    await request(app.url).get('/health/live').expect(200);
  });
});
