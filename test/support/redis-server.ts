import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

/** True when a `redis-server` binary is on PATH (`.ci/run` installs one). */
export const hasRedisServer = spawnSync('which', ['redis-server']).status === 0;

/** True when a Redis on the port answers PING with PONG (not LOADING, not a refused connection). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (reply) => done(reply.toString().startsWith('+PONG')));
  });
}

/**
 * A throw-away redis-server on 127.0.0.1 for one test file: no persistence, its own free port, and
 * `kill()` / `start()` again on the same port to play an outage and a recovery.
 */
export class RedisServer {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server on this port and waits until it answers, failing fast if it exits, 10 s at most. */
  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.process = child;
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(this.port))) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode} before answering`);
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not answer PING within 10 s`);
      await sleep(20);
    }
  }

  /** Kills the server (SIGKILL: an outage, not a shutdown) and waits until it is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
