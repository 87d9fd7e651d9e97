import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { freePort } from './free-port';
import { childEnv } from './child-env';
import { until } from './until';

const MAIN = path.join(__dirname, '..', '..', 'dist', 'main.js');

export interface ServiceProcess {
  url: string;
  /** Everything the process wrote to stdout and stderr so far (its pino log lines included). */
  output(): string;
  /** SIGTERM, then resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
  /** Sends the process a signal (SIGHUP re-reads the access policy). */
  signal(name: NodeJS.Signals): void;
}

/**
 * The built service (dist/main.js) in its own process with exactly the given environment, so its real
 * log output can be read; resolves once /health/live answers.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const chunks: string[] = [];
  const child = spawn(process.execPath, [MAIN], {
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (data: Buffer) => chunks.push(data.toString('utf8')));
  child.stderr!.on('data', (data: Buffer) => chunks.push(data.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const live = async (): Promise<boolean> => {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}:\n${chunks.join('')}`);
    return (await fetch(`${url}/health/live`).catch(() => undefined))?.ok ?? false;
  };
  await until('the service answers /health/live', live, 30_000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error instanceof Error && error.message.startsWith('service exited')
      ? error
      : new Error(`service did not start:\n${chunks.join('')}`);
  });
  return {
    url,
    output: () => chunks.join(''),
    stop: () => stopChild(child, exited),
    signal: (name) => void child.kill(name),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return exited;
}

/** Runs dist/main.js expecting it to refuse to start; resolves with its exit code and output. */
export function runServiceExpectingExit(
  env: Record<string, string>,
  deadlineMs = 20000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.on('data', (data: Buffer) => chunks.push(data.toString('utf8')));
  child.stderr!.on('data', (data: Buffer) => chunks.push(data.toString('utf8')));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: chunks.join('') });
    });
  });
}
