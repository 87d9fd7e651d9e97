/**
 * Shared state across replicas (SPEC §1, issue 16): two service processes on one redis-server enforce
 * one rate limit together and introspect a token once between them, while chat sessions, being per account by
 * their folders, need nothing from Redis; when Redis is killed mid-load
 * they keep answering from in-process state (one warning each), and use Redis again once it is back.
 * Redis never holds a raw token.
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Redis from 'ioredis';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';
import { hasRedisServer, RedisServer } from './support/redis-server';
import { SpawnedService, spawnService } from './support/spawned-service';
import { until } from './support/until';

const WHOAMI = '/api/agent-retrieval/v1/auth/whoami';
const RATE_LIMIT = 5;
const WARN = 40;

/** One JSON log line of the service (pino); level 40 is a warning. */
type LogLine = { level?: number; msg?: string; context?: string };

/** The service's JSON log lines; anything else it printed is skipped. */
function logLines(service: SpawnedService): LogLine[] {
  return service
    .stdout()
    .split('\n')
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line) as unknown;
        return typeof parsed === 'object' && parsed !== null ? [parsed as LogLine] : [];
      } catch {
        return [];
      }
    });
}

/** Ory Hydra's introspection endpoint: every token is active for its own account, `inactive-…` ones are not. */
function hydra(): (request: RecordedRequest, response: ServerResponse) => void {
  // Account ids are numbered, so a token could only reach Redis through the service, never through its sub.
  const accounts = new Map<string, string>();
  return (request, response) => {
    const token = new URLSearchParams(request.body).get('token') ?? '';
    if (token.startsWith('inactive-')) return sendJson(response, 200, { active: false });
    if (!accounts.has(token)) accounts.set(token, `acct-${accounts.size + 1}`);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const ext = { visitor_type: 'realname' };
    sendJson(response, 200, { active: true, sub: accounts.get(token), client_id: 'web', exp, ext });
  };
}

(hasRedisServer ? describe : describe.skip)('shared state in Redis across two processes (e2e)', () => {
  const introspection = new HttpPeer(hydra());
  const tokens: string[] = [];
  let redis: RedisServer;
  let inspector: Redis;
  let services: SpawnedService[] = [];
  let volumes: string;

  /** A token no request has used yet (random, so it could never be guessed from a Redis key). */
  const freshToken = (prefix = 'tok'): string => {
    const token = `${prefix}-${randomUUID()}`;
    tokens.push(token);
    return token;
  };
  const introspectionsOf = (token: string): number =>
    introspection.requests.filter((recorded) => new URLSearchParams(recorded.body).get('token') === token).length;
  const whoami = async (service: SpawnedService, token: string): Promise<number> => {
    const response = await fetch(`${service.url}${WHOAMI}`, {
      headers: { authorization: `Bearer ${token}` },
      // A request waiting on an unreachable Redis would fail the test here instead of hanging it (20 s:
      // well above an answer on a busy machine running specs side by side, well below the test's timeout).
      signal: AbortSignal.timeout(20_000),
    });
    await response.arrayBuffer();
    return response.status;
  };
  const redisWarnings = (service: SpawnedService): string[] =>
    logLines(service)
      .filter((line) => line.level === WARN && /redis/i.test(`${line.msg} ${line.context}`))
      .map((line) => line.msg ?? '');

  beforeAll(async () => {
    const [introspectUrl, server] = await Promise.all([introspection.start(), RedisServer.start()]);
    redis = server;
    inspector = new Redis(redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    inspector.on('error', () => undefined);
    const env = {
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${introspectUrl}/admin/oauth2/introspect`,
      REDIS_URL: redis.url,
      RATE_LIMIT_MAX: String(RATE_LIMIT),
      RATE_LIMIT_TTL_S: '60',
      LOG_LEVEL: 'info',
      METRICS_PROCESS: 'false',
      SHUTDOWN_GRACE_MS: '2000',
    };
    // Each process has a workspace volume of its own, as replicas without a ReadWriteMany claim do.
    volumes = mkdtempSync(path.join(tmpdir(), 'replica-workspaces-'));
    const replica = (name: string) => spawnService({ ...env, WORKSPACE_ROOT: path.join(volumes, name) });
    services = await Promise.all([replica('first'), replica('second')]);
    await inspector.connect();
  }, 60_000);

  afterAll(async () => {
    inspector?.disconnect();
    await Promise.all(services.map((service) => service.stop()));
    await redis?.kill();
    await introspection.stop();
    if (volumes) rmSync(volumes, { recursive: true, force: true });
  });

  it('enforces one rate limit together: requests alternating between the processes hit 429 at the shared limit', async () => {
    const token = freshToken();
    const statuses: number[] = [];
    for (let index = 0; index < RATE_LIMIT + 3; index += 1) statuses.push(await whoami(services[index % 2], token));
    expect(statuses).toEqual([...Array<number>(RATE_LIMIT).fill(200), 429, 429, 429]);
  });

  it('introspects a token once for both processes, and shares inactive answers too', async () => {
    const token = freshToken();
    expect(await whoami(services[0], token)).toBe(200);
    expect(await whoami(services[1], token)).toBe(200);
    expect(introspectionsOf(token)).toBe(1);
    const inactive = freshToken('inactive');
    expect(await whoami(services[1], inactive)).toBe(401);
    expect(await whoami(services[0], inactive)).toBe(401);
    expect(introspectionsOf(inactive)).toBe(1);
  });

  it("keeps chat sessions per account without Redis: another account's same session_id is its own workspace", async () => {
    const owner = freshToken();
    const intruder = freshToken();
    const callTool = async (service: SpawnedService, token: string, name: string, args: object) => {
      const response = await fetch(`${service.url}/v1/tools/${name}/call`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ arguments: args, session_id: 'replicated-session' }),
        signal: AbortSignal.timeout(20_000),
      });
      return { status: response.status, body: (await response.json()) as { error?: { code?: string } } };
    };
    const written = await callTool(services[0], owner, 'write_file', { path: 'note.txt', content: 'owner only' });
    expect(written.status).toBe(200);
    expect(await callTool(services[1], intruder, 'list_files', {})).toEqual({
      status: 200,
      body: expect.objectContaining({ content: '[]' }),
    });
    const unseen = await callTool(services[0], intruder, 'read_file', { path: 'note.txt' });
    expect(unseen).toMatchObject({ status: 422, body: { error: { code: 'tool_failed' } } });
    expect((await callTool(services[0], owner, 'read_file', { path: 'note.txt' })).body).toMatchObject({
      content: 'owner only',
    });
    expect(await inspector.keys('ar:chat:*')).toEqual([]);
  });

  it('keeps no raw token in Redis: introspection entries are keyed by a SHA-256 of the token', async () => {
    const keys: string[] = [];
    for (let cursor = '0'; ;) {
      const [next, batch] = await inspector.scan(cursor, 'COUNT', 1000);
      keys.push(...batch);
      cursor = next;
      if (cursor === '0') break;
    }
    const introspectionKeys = keys.filter((key) => key.startsWith('ar:introspect:'));
    expect(introspectionKeys.length).toBeGreaterThanOrEqual(2);
    for (const key of introspectionKeys) expect(key).toMatch(/^ar:introspect:[A-Za-z0-9_-]{43}$/);
    const values = await Promise.all(introspectionKeys.map((key) => inspector.get(key)));
    const stored = [...keys, ...values].join('\n');
    for (const token of tokens) expect(stored).not.toContain(token);
    expect(keys.some((key) => key.startsWith('ar:throttle:'))).toBe(true);
  });

  it('Redis killed mid-load: both keep answering from in-process state with one warning each, then use Redis again', async () => {
    const statuses: number[] = [];
    let stop = false;
    let sent = 0;
    // Each token is used three times, so new tokens (introspection) and known ones (cache, limiter) mix.
    let token = freshToken('load');
    const worker = async (): Promise<void> => {
      while (!stop) {
        if (sent++ % 3 === 0) token = freshToken('load');
        statuses.push(await whoami(services[sent % 2], token));
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    await until('the load is under way', () => statuses.length >= 20);
    const beforeKill = statuses.length;
    await redis.kill();
    await until('both processes warned that Redis is gone', () => services.every((s) => redisWarnings(s).length > 0));
    const atWarning = statuses.length;
    await until(
      'answers go on without Redis',
      () => statuses.slice(atWarning).filter((status) => status === 200).length > 8,
    );
    stop = true;
    await load;

    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(beforeKill).toBeGreaterThan(0);
    // Answers went on while Redis was down: each from the process's own cache and limiter.
    expect(statuses.slice(atWarning).filter((status) => status === 200).length).toBeGreaterThan(4);
    for (const service of services) {
      expect(redisWarnings(service)).toEqual([
        expect.stringMatching(/^Redis unavailable .*falls back to this process/),
      ]);
    }

    await redis.start();
    // Once both processes are back on Redis, one of them introspects a new token and the other reads it.
    await until('a new token is introspected once for both processes again', async () => {
      const probe = freshToken('after');
      const answers = [await whoami(services[0], probe), await whoami(services[1], probe)];
      return answers.every((status) => status === 200) && introspectionsOf(probe) === 1;
    });
    const limited = freshToken();
    const statusesAfter: number[] = [];
    for (let index = 0; index < RATE_LIMIT + 1; index += 1)
      statusesAfter.push(await whoami(services[index % 2], limited));
    expect(statusesAfter).toEqual([...Array<number>(RATE_LIMIT).fill(200), 429]);
    for (const service of services) {
      expect(redisWarnings(service)).toHaveLength(1);
      expect(logLines(service).map((line) => line.msg)).toContain('Redis reachable again; shared state resumes');
    }
  }, 30_000);
});

if (!hasRedisServer) {
  console.info('redis-shared-state e2e skipped: no redis-server binary on PATH');
}
