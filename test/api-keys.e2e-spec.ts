/**
 * API keys (issue 29 item 4, SPEC §12): made through the private admin route and through the `keys` CLI
 * (the built CLI as a child process on the service's DATA_DIR), used as Bearer tokens at REST, MCP (the
 * official SDK client) and the chat door (the `openai` client); expired and revoked keys are 401 like a bad
 * token and counted in the caller's IP bucket. Two built service processes on one real redis-server agree
 * on a revocation within 5 s, and the one running at LOG_LEVEL=trace never prints a key's secret.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import OpenAI from 'openai';
import request from 'supertest';
import { parseApiKey } from '../src/common/auth/api-keys/api-key-format';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { childEnv } from './support/child-env';
import { LlmStandin } from './support/llm-standin';
import { connectV1 } from './support/mcp-clients';
import { hasRedisServer, RedisServer } from './support/redis-server';
import { SpawnedService, spawnService } from './support/spawned-service';
import { until } from './support/until';

const PUBLIC = '/api/agent-retrieval/v1';
const ADMIN = '/api/agent-retrieval/in/v1/admin/api-keys';
const NETWORKS = `${PUBLIC}/kn/networks`;
const WHOAMI = `${PUBLIC}/auth/whoami`;
const LAUNCHER = path.join(__dirname, '..', 'bin', 'keys.js');
const REVOCATION_DEADLINE_MS = 5000;

interface CreatedKey {
  key: string;
  key_id: string;
  account_id: string;
  account_type: string;
  expires_at: string | null;
}

/**
 * The built CLI (`npm run keys -- …` runs this launcher) with only the given variables. Run without
 * blocking: the service under test lives in this process and must keep answering meanwhile.
 */
function keysCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [LAUNCHER, ...args],
      { env: childEnv({ LOG_LEVEL: 'silent', ...env }), encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

async function createWithCli(env: Record<string, string>, args: string[]): Promise<string> {
  const result = await keysCli(['create', ...args], env);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  return result.stdout.trim();
}

async function createWithAdmin(baseUrl: string, body: object): Promise<CreatedKey> {
  const response = await request(baseUrl).post(ADMIN).set('x-account-id', 'ops').send(body).expect(201);
  return response.body as CreatedKey;
}

async function status(baseUrl: string, key: string, route = NETWORKS): Promise<number> {
  const response = await fetch(`${baseUrl}${route}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(20_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Every door a key opens: REST, MCP (official SDK client) and the chat door (`GET /v1/models`). */
async function expectEveryDoorOpen(baseUrl: string, key: string, account: { id: string; type: string }) {
  const networks = await request(baseUrl).get(NETWORKS).set('Authorization', `Bearer ${key}`).expect(200);
  expect((networks.body as { networks: { id: string }[] }).networks.map((network) => network.id)).toContain('clinic');
  const whoami = await request(baseUrl).get(WHOAMI).set('X-Authorization', `Bearer ${key}`).expect(200);
  expect(whoami.body).toEqual({ account_id: account.id, account_type: account.type });
  const mcp = await connectV1(baseUrl, { Authorization: `Bearer ${key}` });
  try {
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['kn_search', 'list_knowledge_networks']));
    const listed = await mcp.callTool({ name: 'list_knowledge_networks', arguments: { response_format: 'json' } });
    expect(listed.isError).toBeFalsy();
  } finally {
    await mcp.close();
  }
  const openai = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
  expect((await openai.models.list()).data.map((model) => model.id)).toEqual(['standin-model']);
}

/** Polls until the key is refused (401) on every service; resolves with how long that took. */
/**
 * Waits for the effect of a revocation made at `since`: every service refuses the key. The promise under
 * test is the deadline — past REVOCATION_DEADLINE_MS after the revocation, `until` fails.
 */
async function refusedEverywhere(baseUrls: string[], key: string, since: number): Promise<void> {
  await until(
    'the revoked key is refused everywhere',
    async () => (await Promise.all(baseUrls.map((url) => status(url, key)))).every((code) => code === 401),
    since + REVOCATION_DEADLINE_MS - Date.now(),
  );
}

describe('API keys on one service with the file store (e2e)', () => {
  const model = new LlmStandin();
  const secrets: string[] = [];
  let app: TestApp;
  let dataDir: string;
  let env: Record<string, string>;

  const remember = (key: string): string => {
    secrets.push(parseApiKey(key)!.secret);
    return key;
  };

  beforeAll(async () => {
    const llmUrl = await model.start();
    dataDir = mkdtempSync(path.join(tmpdir(), 'api-keys-e2e-'));
    env = {
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'static-token=alice:user',
      DATA_DIR: dataDir,
      LLM_BASE_URL: llmUrl,
    };
    app = await startTestApp(env);
  });

  afterAll(async () => {
    await app.close();
    await model.stop();
  });

  it('creates a key through the admin route: 201, shown once, never listed with its secret or hash', async () => {
    const response = await request(app.url)
      .post(ADMIN)
      .set('x-account-id', 'ops')
      .send({ account_id: 'agent-1', account_type: 'agent', name: 'triage bot', expires_in: '30d' })
      .expect(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const created = response.body as CreatedKey & Record<string, unknown>;
    const parsed = parseApiKey(remember(created.key));
    expect(parsed?.keyId).toBe(created.key_id);
    expect(created).toMatchObject({
      account_id: 'agent-1',
      account_type: 'agent',
      name: 'triage bot',
      status: 'active',
    });
    expect(created).toMatchObject({ created_by: 'ops', last_used_at: null, revoked_at: null });
    const listed = await request(app.url).get(ADMIN).set(INTERNAL_CALLER).query({ account_id: 'agent-1' }).expect(200);
    expect(listed.body).toEqual({ keys: [expect.objectContaining({ key_id: created.key_id, status: 'active' })] });
    const one = await request(app.url).get(`${ADMIN}/${created.key_id}`).set(INTERNAL_CALLER).expect(200);
    for (const body of [JSON.stringify(listed.body), JSON.stringify(one.body)]) {
      expect(body).not.toContain(parsed!.secret);
      expect(body).not.toMatch(/"(key|salt|hash)"/);
    }
    // What the service keeps on disk is the salted hash alone.
    expect(readFileSync(path.join(dataDir, 'api-keys.json'), 'utf8')).not.toContain(parsed!.secret);
    await expectEveryDoorOpen(app.url, created.key, { id: 'agent-1', type: 'agent' });
    const used = await request(app.url).get(`${ADMIN}/${created.key_id}`).set(INTERNAL_CALLER).expect(200);
    expect(Date.parse(used.body.last_used_at as string)).toBeGreaterThan(Date.now() - 60_000);
    // The model endpoint never sees the caller's key.
    expect(JSON.stringify(model.peer.requests.map((recorded) => recorded.headers))).not.toContain(parsed!.secret);
  });

  it('accepts a key the CLI made in the same DATA_DIR at once, at every door', async () => {
    const key = remember(
      await createWithCli({ DATA_DIR: dataDir }, ['--account', 'agent-2', '--type', 'agent', '--expires', '12h']),
    );
    expect(parseApiKey(key)).toBeDefined();
    await expectEveryDoorOpen(app.url, key, { id: 'agent-2', type: 'agent' });
    const listed = await keysCli(['list', '--account', 'agent-2'], { DATA_DIR: dataDir });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(`${parseApiKey(key)!.keyId}  agent-2  agent`);
    expect(listed.stdout).not.toContain(parseApiKey(key)!.secret);
  });

  it('answers 400 naming the field for a bad body, 404 for an unknown key id', async () => {
    const bad = await request(app.url)
      .post(ADMIN)
      .set(INTERNAL_CALLER)
      .send({ account_id: 'agent-3', account_type: 'agent', expires: '1d' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'agentRetrieval.BadRequest.ValidationFormat' });
    expect(bad.body.details).toMatch(/^expires: unknown field/);
    const missing = await request(app.url).post(ADMIN).set(INTERNAL_CALLER).send({ account_id: 'agent-3' }).expect(400);
    expect(missing.body).toMatchObject({ code: 'agentRetrieval.BadRequest.ValidationRequired' });
    expect(missing.body.details).toBe('account_type is required');
    const unknown = await request(app.url)
      .delete(`${ADMIN}/0123456789abcdef`)
      .set(INTERNAL_CALLER)
      .set('X-Language', 'en-US')
      .expect(404);
    expect(unknown.body).toMatchObject({ code: 'agentRetrieval.NotFound.ApiKeyNotFound' });
    expect(unknown.body.description).toBe('No API key has this key id');
    await request(app.url).delete(`${ADMIN}/not-an-id`).set(INTERNAL_CALLER).expect(400);
  });

  it('serves the admin routes on the private prefix only', async () => {
    await request(app.url).get(`${PUBLIC}/admin/api-keys`).set('Authorization', 'Bearer static-token').expect(404);
    await request(app.url).post(`${PUBLIC}/admin/api-keys`).send({}).expect(404);
  });

  it('refuses an expired key with the 401 a bad token gets', async () => {
    const created = await createWithAdmin(app.url, { account_id: 'agent-4', account_type: 'agent', expires_in: '2s' });
    remember(created.key);
    expect(await status(app.url, created.key)).toBe(200);
    await until('the key has expired', async () => (await status(app.url, created.key)) === 401, 5000);
    const response = await request(app.url).get(NETWORKS).set('Authorization', `Bearer ${created.key}`).expect(401);
    expect(response.body.code).toBe('agentRetrieval.Unauthorized.TokenInactive');
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    const listed = await request(app.url).get(`${ADMIN}/${created.key_id}`).set(INTERNAL_CALLER).expect(200);
    expect(listed.body.status).toBe('expired');
  });

  it('refuses a key revoked through the admin route within 5 s, at REST, MCP and chat', async () => {
    const created = await createWithAdmin(app.url, { account_id: 'agent-5', account_type: 'agent' });
    remember(created.key);
    expect(await status(app.url, created.key)).toBe(200);
    const revoked = await request(app.url).delete(`${ADMIN}/${created.key_id}`).set(INTERNAL_CALLER).expect(200);
    const revokedAt = Date.now();
    expect(revoked.body).toMatchObject({ key_id: created.key_id, status: 'revoked', revoked_at: expect.any(String) });
    await refusedEverywhere([app.url], created.key, revokedAt);
    const mcp = await fetch(`${app.url}${PUBLIC}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${created.key}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    const chat = await request(app.url).get('/v1/models').set('Authorization', `Bearer ${created.key}`);
    expect(chat.status).toBe(401);
    expect(JSON.stringify(chat.body)).not.toContain(parseApiKey(created.key)!.secret);
  });

  it('refuses a key revoked through the CLI within 5 s', async () => {
    const key = remember(await createWithCli({ DATA_DIR: dataDir }, ['--account', 'agent-6', '--type', 'agent']));
    expect(await status(app.url, key)).toBe(200);
    const revoked = await keysCli(['revoke', parseApiKey(key)!.keyId], { DATA_DIR: dataDir });
    expect(revoked.status).toBe(0);
    // Revoked once the CLI has written the store: its own start-up is not the service's delay.
    const revokedAt = Date.now();
    await refusedEverywhere([app.url], key, revokedAt);
  });

  it('refuses malformed and unknown keys as bad tokens, while static tokens keep working', async () => {
    const unknown = `ar_0123456789abcdef_${'A'.repeat(43)}`;
    for (const key of [unknown, 'ar_', `ar_0123456789abcdef_${'A'.repeat(42)}_`, `${unknown}x`]) {
      const response = await request(app.url).get(NETWORKS).set('Authorization', `Bearer ${key}`).expect(401);
      expect(response.body.code).toBe('agentRetrieval.Unauthorized.TokenInactive');
    }
    await request(app.url).get(NETWORKS).set('Authorization', 'Bearer static-token').expect(200);
  });

  it('puts no secret of any key above into a metric', async () => {
    const metrics = await request(app.url).get('/metrics').expect(200);
    expect(metrics.text).toContain('route="/api/agent-retrieval/in/v1/admin/api-keys/:key_id"');
    expect(secrets).toHaveLength(5);
    for (const secret of secrets) expect(metrics.text).not.toContain(secret);
  });

  it('exits 1 with one line on bad CLI input', async () => {
    const result = await keysCli(['create', '--account', 'agent-7'], { DATA_DIR: dataDir });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'keys: create: --type is required (see: npm run keys -- --help)',
    ]);
  });
});

describe('API keys and the rate limit (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'api-keys-limit-'));
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 't=a:user',
      DATA_DIR: dataDir,
      RATE_LIMIT_MAX: '3',
    });
  });

  afterAll(async () => {
    await app.close();
  });

  it('counts each refused key in the client IP’s bucket; a valid key then still passes on its own account', async () => {
    const good = await createWithAdmin(app.url, { account_id: 'agent-8', account_type: 'agent' });
    const made = (index: number) => `ar_${String(index).padStart(16, '0')}_${'B'.repeat(43)}`;
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push(await status(app.url, made(index)));
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await status(app.url, good.key)).toBe(200);
  });
});

(hasRedisServer ? describe : describe.skip)('API keys across two service processes on one Redis (e2e)', () => {
  const model = new LlmStandin();
  let redis: RedisServer;
  let services: SpawnedService[] = [];
  let cliEnv: Record<string, string>;
  const secrets: string[] = [];

  const remember = (key: string): string => {
    secrets.push(parseApiKey(key)!.secret);
    return key;
  };

  beforeAll(async () => {
    const [llmUrl, server] = await Promise.all([model.start(), RedisServer.start()]);
    redis = server;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'api-keys-redis-'));
    // The data folder is set but unused: with REDIS_URL the keys live in Redis for the service and the CLI alike.
    cliEnv = { REDIS_URL: redis.url, DATA_DIR: dataDir };
    const env = {
      ...cliEnv,
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'static-token=alice:user',
      LLM_BASE_URL: llmUrl,
      METRICS_PROCESS: 'false',
      SHUTDOWN_GRACE_MS: '2000',
    };
    services = await Promise.all([
      spawnService({ ...env, LOG_LEVEL: 'trace' }),
      spawnService({ ...env, LOG_LEVEL: 'info' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await redis?.kill();
    await model.stop();
  });

  it('a key made on one process (admin route) or by the CLI opens every door on both', async () => {
    const admin = await createWithAdmin(services[0].url, { account_id: 'agent-r1', account_type: 'agent' });
    remember(admin.key);
    const cli = remember(
      await createWithCli(cliEnv, ['--account', 'agent-r2', '--type', 'agent', '--name', 'redis bot']),
    );
    for (const service of services) {
      await expectEveryDoorOpen(service.url, admin.key, { id: 'agent-r1', type: 'agent' });
      await expectEveryDoorOpen(service.url, cli, { id: 'agent-r2', type: 'agent' });
    }
  });

  it('both processes refuse a key within 5 s of its revocation on one of them', async () => {
    const created = await createWithAdmin(services[0].url, { account_id: 'agent-r3', account_type: 'agent' });
    remember(created.key);
    for (const service of services) expect(await status(service.url, created.key)).toBe(200);
    await request(services[1].url).delete(`${ADMIN}/${created.key_id}`).set(INTERNAL_CALLER).expect(200);
    const revokedAt = Date.now();
    const urls = services.map((service) => service.url);
    await refusedEverywhere(urls, created.key, revokedAt);
  });

  it('both processes refuse a key within 5 s of its revocation by the CLI', async () => {
    const key = remember(await createWithCli(cliEnv, ['--account', 'agent-r4', '--type', 'agent', '--expires', '1d']));
    for (const service of services) expect(await status(service.url, key)).toBe(200);
    expect((await keysCli(['revoke', parseApiKey(key)!.keyId], cliEnv)).status).toBe(0);
    // Revoked once the CLI has written to Redis: its own start-up is not the services' delay.
    const revokedAt = Date.now();
    const urls = services.map((service) => service.url);
    await refusedEverywhere(urls, key, revokedAt);
  });

  it('an expired key is refused by both', async () => {
    const created = await createWithAdmin(services[1].url, {
      account_id: 'agent-r5',
      account_type: 'agent',
      expires_in: '2s',
    });
    remember(created.key);
    expect(await status(services[0].url, created.key)).toBe(200);
    await until('the key has expired on both', async () => {
      const codes = await Promise.all(services.map((service) => status(service.url, created.key)));
      return codes.every((code) => code === 401);
    });
  });

  it('Redis holds only salted hashes: no secret in any key or value', async () => {
    const inspector = new Redis(redis.url);
    try {
      const keys = await inspector.keys('*');
      expect(keys).toEqual(expect.arrayContaining(['ar:api-keys']));
      const values = await Promise.all(
        keys.map(async (key) => {
          const type = await inspector.type(key);
          if (type === 'hash') return JSON.stringify(await inspector.hgetall(key));
          if (type === 'set') return JSON.stringify(await inspector.smembers(key));
          if (type === 'string') return (await inspector.get(key)) ?? '';
          return '';
        }),
      );
      const dump = [...keys, ...values].join('\n');
      for (const secret of secrets)
        expect({ secret, stored: dump.includes(secret) }).toEqual({ secret, stored: false });
    } finally {
      inspector.disconnect();
    }
  });

  it('the process at LOG_LEVEL=trace printed no secret of any key in the whole scenario', async () => {
    const traced = services[0];
    await traced.stop();
    const output = `${traced.stdout()}\n${traced.stderr()}`;
    // The capture is real: every door's requests above are in it, the refused ones (warn) too.
    for (const url of [NETWORKS, WHOAMI, `${PUBLIC}/mcp`, '/v1/models', ADMIN])
      expect(output).toContain(`"url":"${url}"`);
    expect(output).toMatch(/"level":40,.*"statusCode":401/);
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    for (const secret of secrets)
      expect({ secret, logged: output.includes(secret) }).toEqual({ secret, logged: false });
    expect(output).not.toMatch(/authorization"?\s*[:=]\s*"?Bearer\s/i);
  });
});
