import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { childEnv } from './child-env';

const root = path.join(__dirname, '..', '..');

/** The built service (dist/main.js) running as its own process, its stdout and stderr kept. */
export interface SpawnedService {
  url: string;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/**
 * Spawns the built service on 127.0.0.1 and a free port with only the given variables (plus PATH):
 * for what an in-process app cannot show, such as module loading and instrumentation at start-up.
 * `nodeArgs` go before the script (e.g. `-r` a preload); `user` runs it as another uid and gid (the test
 * running as root), as the image's non-root `USER` does.
 */
export async function spawnService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  user: { uid?: number; gid?: number } = {},
): Promise<SpawnedService> {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'main.js')], {
    cwd: root,
    env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout!.on('data', (data: Buffer) => out.push(data.toString('utf8')));
  child.stderr!.on('data', (data: Buffer) => err.push(data.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await listeningUrl(
    child,
    () => out.join(''),
    () => err.join(''),
  );
  return {
    url,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

function listeningUrl(child: ChildProcess, stdout: () => string, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout());
      if (!match) return;
      child.stdout!.off('data', onData);
      resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited early (${code}):\n${stdout()}${stderr()}`)));
  });
}
