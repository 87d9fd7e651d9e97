/**
 * Workspaces per account (issue 30) through `POST /v1/tools/write_file/call`: 50 concurrent writers of one
 * account never take it past WORKSPACE_ACCOUNT_MAX_SESSIONS, _BYTES or _FILES, whether they reach one process or
 * two sharing the volume, and other accounts are unaffected; the same session_id from two accounts is two
 * workspaces; and a service running as a non-root user writes under the image's default root, while a root it
 * cannot write is a clear refusal with a log line, never a 500. Every count is taken on disk afterwards.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { accountFolderName } from '../src/chat/workspace/workspace-paths';
import { startTestApp, TestApp } from './support/app';
import { SpawnedService, spawnService } from './support/spawned-service';
import { until } from './support/until';

const ACCOUNTS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
const TOKENS = ACCOUNTS.map((account) => `tok-${account}=${account}:user`).join(',');
const QUOTAS = {
  WORKSPACE_ACCOUNT_MAX_SESSIONS: '5',
  WORKSPACE_ACCOUNT_MAX_BYTES: '40960',
  WORKSPACE_ACCOUNT_MAX_FILES: '30',
};
const QUOTA_EXCEEDED = 'agentRetrieval.BadRequest.WorkspaceQuotaExceeded';

interface DiskUsage {
  sessions: number;
  bytes: number;
  /** Files and folders inside the sessions, the service's own markers left out. */
  entries: number;
}

/** What one account holds under `root`, counted on disk. */
function diskUsage(root: string, account: string): DiskUsage {
  const folder = path.join(root, accountFolderName(account));
  const usage = { sessions: 0, bytes: 0, entries: 0 };
  if (!existsSync(folder)) return usage;
  const walk = (dir: string, top: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (top && entry.name.startsWith('.')) continue;
      const child = path.join(dir, entry.name);
      usage.entries += 1;
      if (entry.isDirectory()) walk(child, false);
      else usage.bytes += lstatSync(child).size;
    }
  };
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    usage.sessions += 1;
    walk(path.join(folder, entry.name), true);
  }
  return usage;
}

type Call = (account: string, args: { path: string; content: string }, sessionId?: string) => request.Test;

const callerOf =
  (url: () => string): Call =>
  (account, args, sessionId) =>
    request(url())
      .post('/v1/tools/write_file/call')
      .set('authorization', `Bearer tok-${account}`)
      .set('X-Language', 'en-US')
      .send({ arguments: args, ...(sessionId ? { session_id: sessionId } : {}) });

/** Every answer is a success or a quota refusal at the tool door (422 tool_failed), never anything else. */
function tally(responses: request.Response[]): number {
  for (const response of responses.filter((answer) => answer.status !== 200)) {
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'tool_failed', detail_code: QUOTA_EXCEEDED });
  }
  return responses.filter((response) => response.status === 200).length;
}

const concurrently = <T>(count: number, start: (index: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: count }, (_, index) => start(index)));

describe('workspace quotas per account, one process (e2e)', () => {
  let app: TestApp;
  let root: string;
  const write = callerOf(() => app.url);

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ws-quotas-'));
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: TOKENS, WORKSPACE_ROOT: root, ...QUOTAS });
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('50 concurrent writers without session_id make at most WORKSPACE_ACCOUNT_MAX_SESSIONS workspaces', async () => {
    const responses = await concurrently(50, (index) => write('alice', { path: `f${index}.txt`, content: 'x' }));
    expect(tally(responses)).toBe(5);
    const refused = responses.find((response) => response.status === 422)!;
    expect(refused.body.error.message).toMatch(/this account already holds 5 workspaces, its limit/);
    expect(diskUsage(root, 'alice')).toEqual({ sessions: 5, bytes: 5, entries: 5 });
  });

  it('another account is unaffected by the one at its quota', async () => {
    const responses = await concurrently(5, (index) => write('bob', { path: 'note.txt', content: 'bob' }, `b${index}`));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(diskUsage(root, 'bob')).toEqual({ sessions: 5, bytes: 15, entries: 5 });
  });

  it('50 concurrent writers over five sessions never take an account past WORKSPACE_ACCOUNT_MAX_BYTES', async () => {
    const content = 'y'.repeat(4096);
    const responses = await concurrently(50, (index) =>
      write('carol', { path: `f${index}.txt`, content }, `c${index % 5}`),
    );
    expect(tally(responses)).toBe(10);
    expect(diskUsage(root, 'carol')).toEqual({ sessions: 5, bytes: 40960, entries: 10 });
  });

  it('50 concurrent writers never take an account past WORKSPACE_ACCOUNT_MAX_FILES, folders included', async () => {
    const responses = await concurrently(50, (index) =>
      write('dave', { path: `d${index}/f.txt`, content: 'z' }, `d${index % 5}`),
    );
    expect(tally(responses)).toBe(15);
    expect(diskUsage(root, 'dave')).toEqual({ sessions: 5, bytes: 15, entries: 30 });
  });

  it('the same session_id used by two accounts is two separate workspaces', async () => {
    const read = (account: string) =>
      request(app.url)
        .post('/v1/tools/read_file/call')
        .set('authorization', `Bearer tok-${account}`)
        .send({ arguments: { path: 'secret.txt' }, session_id: 'same-id' });
    await write('erin', { path: 'secret.txt', content: 'erin only' }, 'same-id').expect(200);
    const missing = await read('frank').expect(422);
    expect(missing.body.error.detail_code).toBe('agentRetrieval.NotFound.WorkspacePathNotFound');
    await write('frank', { path: 'secret.txt', content: 'frank' }, 'same-id').expect(200);
    expect((await read('erin').expect(200)).body.content).toBe('erin only');
    expect((await read('frank').expect(200)).body.content).toBe('frank');
    const fileOf = (account: string) => path.join(root, accountFolderName(account), 'same-id', 'secret.txt');
    expect([readFileSync(fileOf('erin'), 'utf8'), readFileSync(fileOf('frank'), 'utf8')]).toEqual([
      'erin only',
      'frank',
    ]);
  });
});

describe('workspace quotas per account, two processes sharing the volume (e2e)', () => {
  let root: string;
  let replicas: SpawnedService[] = [];

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ws-shared-'));
    const env = {
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: TOKENS,
      WORKSPACE_ROOT: root,
      METRICS_PROCESS: 'false',
      ...QUOTAS,
    };
    replicas = await Promise.all([spawnService(env), spawnService(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    rmSync(root, { recursive: true, force: true });
  });

  it('of 50 concurrent writers on two processes, each wanting over half the quota, exactly one gets it', async () => {
    const writers = replicas.map((replica) => callerOf(() => replica.url));
    const content = 'h'.repeat(40960 / 2 + 1);
    const responses = await concurrently(50, (index) =>
      writers[index % 2]('carol', { path: `f${index}.txt`, content }, `c${index % 4}`),
    );
    expect(tally(responses)).toBe(1);
    expect(diskUsage(root, 'carol')).toMatchObject({ bytes: content.length, entries: 1 });
  });

  it('50 concurrent writers of one account, half on each process, stay within its quotas', async () => {
    const writers = replicas.map((replica) => callerOf(() => replica.url));
    const content = 'y'.repeat(4096);
    const named = await concurrently(50, (index) =>
      writers[index % 2]('alice', { path: `f${index}.txt`, content }, `s${index % 3}`),
    );
    expect(tally(named)).toBe(10);
    // The bytes are used up, but each process may still open the two sessions left, and no more between them.
    const fresh = await concurrently(50, (index) => writers[index % 2]('alice', { path: 'a.txt', content: 'x' }));
    expect(tally(fresh)).toBe(0);
    expect(diskUsage(root, 'alice')).toEqual({ sessions: 5, bytes: 40960, entries: 10 });
    await writers[1]('bob', { path: 'b.txt', content: 'bob' }, 's0').expect(200);
    expect(diskUsage(root, 'bob')).toEqual({ sessions: 1, bytes: 3, entries: 1 });
  });
});

/** The image's runtime ENV values (Dockerfile `ENV` lines of the last stage). */
function imageEnv(): Record<string, string> {
  const dockerfile = readFileSync(path.join(__dirname, '..', 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
  return Object.fromEntries([...runtime.matchAll(/\b([A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
}

// As root, the services run as nobody, as the image runs as `node`; otherwise as the (non-root) test user.
const nonRoot = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe('a service running as a non-root user (e2e)', () => {
  let scratch: string;
  let writable: SpawnedService;
  let unwritable: SpawnedService;
  let defaultRoot: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'ws-nonroot-'));
    chmodSync(scratch, 0o755);
    // A stand-in for the image's /tmp (world-writable, sticky), and for /app (owned by root, read-only to others).
    const fakeTmp = path.join(scratch, 'tmp');
    const fakeApp = path.join(scratch, 'app');
    mkdirSync(fakeTmp);
    chmodSync(fakeTmp, 0o1777);
    mkdirSync(fakeApp);
    chmodSync(fakeApp, 0o555);
    const inFakeTmp = (value: string) => path.join(fakeTmp, path.relative('/tmp', value));
    const image = imageEnv();
    defaultRoot = inFakeTmp(image.WORKSPACE_ROOT);
    const env = {
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: TOKENS,
      METRICS_PROCESS: 'false',
      DATA_DIR: inFakeTmp(image.DATA_DIR),
    };
    [writable, unwritable] = await Promise.all([
      spawnService({ ...env, WORKSPACE_ROOT: defaultRoot }, [], nonRoot),
      spawnService({ ...env, WORKSPACE_ROOT: path.join(fakeApp, 'data', 'workspaces') }, [], nonRoot),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([writable, unwritable].map((service) => service?.stop()));
    chmodSync(path.join(scratch, 'app'), 0o755);
    rmSync(scratch, { recursive: true, force: true });
  });

  it('the image sets WORKSPACE_ROOT under /tmp, beside DATA_DIR, not under the root-owned /app', () => {
    const image = imageEnv();
    expect(image.WORKSPACE_ROOT).toMatch(/^\/tmp\//);
    expect(image.WORKSPACE_ROOT.startsWith(`${image.DATA_DIR}/`)).toBe(true);
  });

  it("writes a file under the image's default root, creating the folders on the way", async () => {
    await callerOf(() => writable.url)('alice', { path: 'note.txt', content: 'as nobody' }, 's1').expect(200);
    const file = path.join(defaultRoot, accountFolderName('alice'), 's1', 'note.txt');
    expect(readFileSync(file, 'utf8')).toBe('as nobody');
    if (nonRoot.uid !== undefined) expect(lstatSync(file).uid).toBe(nonRoot.uid);
  });

  it('answers a root it cannot write with a clear refusal and an error log line, never a 500', async () => {
    const response = await callerOf(() => unwritable.url)('alice', { path: 'note.txt', content: 'x' });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'tool_failed',
      detail_code: 'agentRetrieval.ServiceUnavailable.WorkspaceUnavailable',
      message: 'Tool execution failed: write_file: workspaces cannot be written on this server at the moment',
    });
    const refusal = /Cannot write workspaces under \S+ \(EACCES\): make WORKSPACE_ROOT writable/;
    // The line reaches this process through a pipe, possibly after the answer did.
    await until('the refusal is logged', () => refusal.test(unwritable.stdout()), 5000);
    expect(unwritable.stdout()).toMatch(refusal);
  });
});
