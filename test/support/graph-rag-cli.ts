import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { childEnv } from './child-env';

export const PROJECT_ROOT = path.join(__dirname, '..', '..');
const LAUNCHER = path.join(PROJECT_ROOT, 'bin', 'graph-rag.js');
/** `graph-rag` and `graph-rag.sh` for PATH (node_modules/.bin is a shared install we do not touch). */
export const CONTRACT_BIN = path.join(PROJECT_ROOT, 'test', 'contract', 'bin');

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export const freshDir = (prefix: string): string => mkdtempSync(path.join(tmpdir(), prefix));

/** A hermetic environment for the CLI: only these variables, never the developer's shell settings. */
export function cliEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return childEnv({
    PATH: `${CONTRACT_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? tmpdir(),
    LANG: 'C.UTF-8',
    CODE_ROOT: 'examples/code',
    LOG_LEVEL: 'silent',
    ...extra,
  });
}

/** Builds dist/ through the launcher when it is missing or stale (the launcher decides). */
export function ensureCliBuilt(): void {
  execFileSync(process.execPath, [LAUNCHER, '--help'], { cwd: PROJECT_ROOT, stdio: 'ignore', timeout: 300000 });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): RunResult {
  const result = spawnSync(process.execPath, [LAUNCHER, ...args], {
    cwd: PROJECT_ROOT,
    env,
    encoding: 'utf8',
    timeout: 60000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function runScript(script: string, env: NodeJS.ProcessEnv): RunResult {
  const result = spawnSync('bash', [script], { cwd: PROJECT_ROOT, env, encoding: 'utf8', timeout: 60000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function hasCommand(name: string): boolean {
  return spawnSync('which', [name], { stdio: 'ignore' }).status === 0;
}
