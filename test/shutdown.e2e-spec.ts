import { ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import * as path from 'node:path';
import { HttpPeer, sendJson } from './support/http-peer';

const root = path.join(__dirname, '..');

/** Waits until the child prints its listening line; returns the base URL. */
function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited early (${code}): ${output}`)));
  });
}

describe('graceful shutdown of the built service (e2e)', () => {
  const slowHydra = new HttpPeer((request, response) => {
    setTimeout(() => sendJson(response, 200, { active: true, sub: `u-${request.body}`, client_id: 'web' }), 1500);
  });

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-build.js')], { cwd: root, stdio: 'ignore' });
    await slowHydra.start();
  });

  afterAll(async () => {
    await slowHydra.stop();
  });

  it('SIGTERM with 20 slow requests in flight: all complete with 200, then exit 0', async () => {
    const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        LOG_LEVEL: 'warn',
        AUTH_MODE: 'introspect',
        INTROSPECT_URL: `${slowHydra.url}/admin/oauth2/introspect`,
        KN_DIR: path.join(root, 'test', 'fixtures', 'empty-networks'),
      },
    });
    const url = await listeningUrl(child);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${url}/api/agent-retrieval/v1/auth/whoami`, { headers: { authorization: `Bearer token-${i}` } }).then(
        async (response) => ({ status: response.status, body: (await response.json()) as { account_id: string } }),
      ),
    );
    while (slowHydra.requests.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');

    const results = await Promise.all(inFlight);
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((result) => result.body.account_id)).size).toBe(20);
    expect(await exited).toBe(0);
  });
});
