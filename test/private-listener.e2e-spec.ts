import { connect } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../src/common/http/route-prefixes';
import { ConfigError, loadConfig } from '../src/config';
import { startTestApp, TestApp } from './support/app';
import { spawnService } from './support/spawned-service';
import { until } from './support/until';

const EMPTY_NETWORKS = path.join(__dirname, 'fixtures', 'empty-networks');
const PRIVATE_WHOAMI = `${PRIVATE_PREFIX}/auth/whoami`;
const PUBLIC_WHOAMI = `${PUBLIC_PREFIX}/auth/whoami`;
const INTERNAL = { 'x-account-id': 'platform', 'x-account-type': 'app' };

interface OpenApiDocument {
  paths: Record<string, unknown>;
}

/** Issue 31 item 1: the private prefix (which trusts x-account-id) on its own listener. */
describe('the private prefix on its own listener, PRIVATE_PORT (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'dev-secret=alice:user', PRIVATE_PORT: '0' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('listens on two ports of one app', () => {
    expect(app.privateServer).toBeDefined();
    expect(new URL(app.privateUrl).port).not.toBe(new URL(app.url).port);
  });

  it('serves private routes on the private listener only; the public one answers 404 as for no route', async () => {
    const served = await request(app.privateUrl).get(PRIVATE_WHOAMI).set(INTERNAL).expect(200);
    expect(served.body).toEqual({ account_id: 'platform', account_type: 'app' });
    const hidden = await request(app.url).get(PRIVATE_WHOAMI).set(INTERNAL).set('X-Language', 'en-US').expect(404);
    const absent = await request(app.url).get(`${PRIVATE_PREFIX}/nope`).set('X-Language', 'en-US').expect(404);
    expect(hidden.body).toMatchObject({ code: 'Public.NotFound', details: `no route for GET ${PRIVATE_WHOAMI}` });
    expect(Object.keys(hidden.body).sort()).toEqual(Object.keys(absent.body).sort());
  });

  it('gives a wrong method on a private route 404 too, never a 405 that would tell the route exists', async () => {
    const action = `${PRIVATE_PREFIX}/kn/execute_action`;
    await request(app.privateUrl).get(action).set(INTERNAL).expect(405);
    const response = await request(app.url).get(action).set(INTERNAL).expect(404);
    expect(response.headers.allow).toBeUndefined();
    await request(app.url).post(action).set(INTERNAL).send({ kn_id: 'clinic' }).expect(404);
    await request(app.url).post(`${PRIVATE_PREFIX}/mcp/proxy/clinic_tools/tools/x/call`).set(INTERNAL).expect(404);
  });

  it('serves public routes on the public listener only', async () => {
    const bearer = { Authorization: 'Bearer dev-secret' };
    await request(app.url).get(PUBLIC_WHOAMI).set(bearer).expect(200);
    await request(app.privateUrl).get(PUBLIC_WHOAMI).set(bearer).expect(404);
  });

  it('answers the probes and metrics on both listeners', async () => {
    for (const url of [app.url, app.privateUrl]) {
      await request(url).get('/health/live').expect(200);
      await request(url).get('/health/ready').expect(200);
      await request(url).get('/metrics').expect(200);
    }
  });

  it('documents on each listener only the routes it serves', async () => {
    const onPublic = (await request(app.url).get('/api/agent-retrieval/docs-json').expect(200)).body as OpenApiDocument;
    const onPrivate = (await request(app.privateUrl).get('/api/agent-retrieval/docs-json').expect(200))
      .body as OpenApiDocument;
    const publicPaths = Object.keys(onPublic.paths);
    const privatePaths = Object.keys(onPrivate.paths);
    expect(publicPaths).toContain(PUBLIC_WHOAMI);
    expect(publicPaths.filter((each) => each.startsWith(`${PRIVATE_PREFIX}/`))).toEqual([]);
    expect(privatePaths).toContain(PRIVATE_WHOAMI);
    expect(privatePaths).toContain(`${PRIVATE_PREFIX}/kn/execute_action`);
    expect(privatePaths.filter((each) => !each.startsWith(`${PRIVATE_PREFIX}/`))).toEqual([]);
    const swaggerInit = await request(app.url).get('/api/agent-retrieval/docs/swagger-ui-init.js').expect(200);
    expect(swaggerInit.text).toContain(PUBLIC_WHOAMI);
    expect(swaggerInit.text).not.toContain(`"${PRIVATE_PREFIX}/`);
  });

  it('hands out action URLs on the private listener by default', () => {
    const config = loadConfig({ PRIVATE_PORT: '30780' });
    expect(config.operators.actionProxyBaseUrl).toBe('http://agent-retrieval:30780');
    expect(loadConfig({}).operators.actionProxyBaseUrl).toBe('http://agent-retrieval:30779');
    expect(
      loadConfig({ PRIVATE_PORT: '30780', ACTION_PROXY_BASE_URL: 'http://ar:1' }).operators.actionProxyBaseUrl,
    ).toBe('http://ar:1');
  });
});

describe('one listener serves both prefixes only where that is safe (e2e)', () => {
  const exposed = { AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'dev-secret=alice:user', HOST: '0.0.0.0' };

  it('refuses AUTH_MODE≠none on a non-loopback HOST without PRIVATE_PORT, naming the variables', () => {
    for (const env of [exposed, { ...exposed, AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://hydra:4445/x' }]) {
      const failure = (() => {
        try {
          loadConfig(env);
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as ConfigError).message).toMatch(/PRIVATE_PORT.*PRIVATE_ON_PUBLIC_PORT=true/);
    }
    expect(() => loadConfig({ ...exposed, PRIVATE_PORT: '30780' })).not.toThrow();
    expect(() => loadConfig({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'a=b:user' })).not.toThrow();
    expect(() => loadConfig({ PRIVATE_PORT: '30779' })).toThrow(/PRIVATE_PORT must differ from PORT/);
    expect(() => loadConfig({ PRIVATE_HOST: '10.0.0.1' })).toThrow(/PRIVATE_HOST is set but PRIVATE_PORT is not/);
    expect(() => loadConfig({ PRIVATE_PORT: '1', PRIVATE_ON_PUBLIC_PORT: 'true' })).toThrow(/contradicts/);
    expect(() => loadConfig({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'secret-token=' })).toThrow(
      /AUTH_STATIC_TOKENS entry 1 must look like token=account_id/,
    );
  });

  it('the built service does not start that way, and says why on stderr', async () => {
    const started = spawnService({ ...exposed, KN_DIR: EMPTY_NETWORKS });
    await expect(started).rejects.toThrow(/service exited early \(1\)[\s\S]*PRIVATE_PORT/);
  });

  it('starts with PRIVATE_ON_PUBLIC_PORT=true, logging a warning that names the risk', async () => {
    const service = await spawnService({
      ...exposed,
      PRIVATE_ON_PUBLIC_PORT: 'true',
      LOG_LEVEL: 'warn',
      KN_DIR: EMPTY_NETWORKS,
    });
    try {
      await until('the warning is logged', () => service.stdout().includes('PRIVATE_ON_PUBLIC_PORT=true'));
      const warning = service
        .stdout()
        .split('\n')
        .find((line) => line.includes('PRIVATE_ON_PUBLIC_PORT=true'))!;
      expect(warning).toMatch(/trusts x-account-id/);
      expect(warning).toMatch(/as any account/);
      expect(warning).not.toContain('dev-secret');
      await request(service.url).get(PRIVATE_WHOAMI).set(INTERNAL).expect(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  });

  it('the built service names both URLs at start and closes both listeners on SIGTERM', async () => {
    const service = await spawnService({ PRIVATE_PORT: '0', LOG_LEVEL: 'warn', KN_DIR: EMPTY_NETWORKS });
    const line = /listening on (http:\/\/\S+) \(private prefix on (http:\/\/\S+)\)/.exec(service.stdout());
    expect(line).not.toBeNull();
    const [, publicUrl, privateUrl] = line!;
    expect(publicUrl).toBe(service.url);
    await request(privateUrl).get(PRIVATE_WHOAMI).set(INTERNAL).expect(200);
    await request(publicUrl).get(PRIVATE_WHOAMI).set(INTERNAL).expect(404);
    expect(await service.stop()).toBe(0);
    for (const url of [publicUrl, privateUrl]) expect(await refused(Number(new URL(url).port))).toBe(true);
  });
});

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}
