import { ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import * as http from 'node:http';
import { connect } from 'node:net';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpPeer, sendJson } from './support/http-peer';
import { childEnv } from './support/child-env';
import { until } from './support/until';

const root = path.join(__dirname, '..');

interface Service {
  child: ChildProcessWithoutNullStreams;
  url: string;
  port: number;
  exited: Promise<number | null>;
}

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

/** Spawns the built service on a free port with only the given variables (plus PATH and an empty KN_DIR). */
async function startService(env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
    cwd: root,
    env: childEnv({
      PORT: '0',
      LOG_LEVEL: 'warn',
      KN_DIR: path.join(root, 'test', 'fixtures', 'empty-networks'),
      ...env,
    }),
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await listeningUrl(child);
  return { child, url, port: Number(new URL(url).port), exited };
}

/** Resolves once a new TCP connection is refused: the service has closed its listener and is draining. */
async function untilRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await sleep(5); // a fine poll: the next steps are timed from SIGTERM, in milliseconds
  }
}

interface Answer {
  status?: number;
  connection?: string;
  reusedSocket?: boolean;
  error?: string;
}

/** GET through a keep-alive agent; reports the status, the Connection header and whether a socket was reused. */
function get(url: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          connection: response.headers.connection,
          reusedSocket: request.reusedSocket,
        }),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

function idleSockets(agent: http.Agent): number {
  return Object.values(agent.freeSockets).reduce((count, sockets) => count + (sockets?.length ?? 0), 0);
}

/** Opens `count` keep-alive connections, one request each, and leaves them idle in the agent's pool. */
async function idleKeepAliveConnections(url: string, count: number): Promise<http.Agent> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const first = await Promise.all(Array.from({ length: count }, () => get(`${url}/health/live`, agent)));
  expect(first).toEqual(Array(count).fill({ status: 200, connection: 'keep-alive', reusedSocket: false }));
  // The agent returns a socket to its pool just after the response ends.
  await until('every socket is idle in the pool', () => idleSockets(agent) === count);
  // Node 22's agent honours the server's `Keep-Alive: timeout=5` hint and would close its idle sockets a
  // moment before the server does; these tests are about what the server does, so the client waits.
  for (const socket of Object.values(agent.freeSockets).flatMap((sockets) => sockets ?? [])) socket.setTimeout(0);
  return agent;
}

describe('graceful shutdown of the built service (e2e)', () => {
  // Introspection answers only once the test lets it (after SIGTERM): the requests are in flight until then.
  let letHydraAnswer: () => void = () => undefined;
  let hydraMayAnswer = Promise.resolve();
  const slowHydra = new HttpPeer(async (request, response) => {
    await hydraMayAnswer;
    sendJson(response, 200, { active: true, sub: `u-${request.body}`, client_id: 'web' });
  });

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-build.js')], { cwd: root, stdio: 'ignore' });
    await slowHydra.start();
  });

  afterAll(async () => {
    await slowHydra.stop();
  });

  it('SIGTERM with 20 slow requests in flight: all complete with 200 and Connection: close, then exit 0', async () => {
    const service = await startService({
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${slowHydra.url}/admin/oauth2/introspect`,
    });
    hydraMayAnswer = new Promise((resolve) => (letHydraAnswer = resolve));

    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${service.url}/api/agent-retrieval/v1/auth/whoami`, {
        headers: { authorization: `Bearer token-${i}` },
      }).then(async (response) => ({
        status: response.status,
        connection: response.headers.get('connection'),
        body: (await response.json()) as { account_id: string },
      })),
    );
    await until('all 20 wait on introspection', () => slowHydra.requests.length === 20);
    service.child.kill('SIGTERM');
    await untilRefused(service.port);
    letHydraAnswer();

    const results = await Promise.all(inFlight);
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(200));
    expect(results.map((result) => result.connection)).toEqual(Array(20).fill('close'));
    expect(new Set(results.map((result) => result.body.account_id)).size).toBe(20);
    expect(await service.exited).toBe(0);
  });

  it('SIGTERM with 20 idle keep-alive connections: the next request on each gets 200, Connection: close', async () => {
    const service = await startService();
    const agent = await idleKeepAliveConnections(service.url, 20);

    const signalledAt = Date.now();
    service.child.kill('SIGTERM');
    await untilRefused(service.port);
    // Like the probe that found the resets: the requests follow SIGTERM by 15 to 110 ms, on the same sockets.
    const second = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await sleep(Math.max(0, signalledAt + 15 + i * 5 - Date.now()));
        return get(`${service.url}/health/live`, agent);
      }),
    );

    expect(second).toEqual(Array(20).fill({ status: 200, connection: 'close', reusedSocket: true }));
    expect(await service.exited).toBe(0);
    agent.destroy();
  });

  it('SIGTERM with idle keep-alive connections that send nothing: they end at the keep-alive timeout', async () => {
    const service = await startService();
    const agent = await idleKeepAliveConnections(service.url, 5);
    let endedSoFar = 0;
    // The client's idle timeout is off (see idleKeepAliveConnections) and it destroys nothing before the
    // end, so a socket that ends or closes was closed by the server: with a FIN on Node 20 ('end'), a
    // reset on Node 22 ('close' alone).
    const endings = Promise.all(
      Object.values(agent.freeSockets)
        .flatMap((sockets) => sockets ?? [])
        .map(
          (socket) =>
            new Promise<string>((resolve) => {
              const closed = () => {
                endedSoFar += 1;
                resolve('closed by the server');
              };
              socket.once('end', closed);
              socket.once('close', closed);
            }),
        ),
    );

    service.child.kill('SIGTERM');
    await untilRefused(service.port);

    expect(endedSoFar).toBe(0); // draining has begun and the idle sockets are still open
    expect(await service.exited).toBe(0);
    expect(await endings).toEqual(Array(5).fill('closed by the server'));
    agent.destroy();
  });
});
