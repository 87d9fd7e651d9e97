// Starts the built service (dist/main.js) as a child process for benchmarks, on a free loopback port.
/* global fetch, AbortSignal -- Node ≥ 20 globals */
const { spawn, execFileSync } = require('node:child_process');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const ROOT = join(__dirname, '..', '..');
const LISTENING = /agent-retrieval listening on (http:\/\/\S+)/;

/** Builds dist/ when it is missing or older than src/ (the same check `npm start` uses). */
function ensureBuilt() {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'ensure-build.js')], { cwd: ROOT, stdio: 'inherit' });
}

/** A hermetic environment: only what the process needs plus the benchmark settings. */
function serviceEnv(knDir, extra) {
  const { PATH, HOME, TMPDIR } = process.env;
  return {
    PATH,
    HOME,
    TMPDIR,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    AUTH_MODE: 'none',
    LOG_LEVEL: 'warn',
    KN_BACKEND: 'embedded',
    KN_DIR: knDir,
    RATE_LIMIT_ENABLED: 'false',
    ...extra,
  };
}

/**
 * Spawns the service and resolves once it listens and /health/ready answers 200. `nodeArgs` go to node
 * before the script (e.g. `--cpu-prof`).
 * The returned handle exposes the base URL, the child, `exited` (its exit code) and `stop(signal)`.
 */
async function startService({ knDir, env = {}, readyTimeoutMs = 300000, nodeArgs = [] }) {
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: serviceEnv(knDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  // Keep the last 40 lines so a failed start can say why.
  const remember = (chunk) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - 40));
  };
  child.stderr.on('data', remember);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      remember(chunk);
      const match = LISTENING.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`service exited (${code}) before listening:\n${output.join('\n')}`)));
  });
  const stop = (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const handle = { url, child, exited, output, stop };
  await waitForReady(handle, readyTimeoutMs);
  return handle;
}

async function waitForReady(handle, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (handle.child.exitCode !== null) throw new Error(`service exited while starting:\n${handle.output.join('\n')}`);
    try {
      const response = await fetch(`${handle.url}/health/ready`, { signal: AbortSignal.timeout(5000) });
      if (response.ok) return;
      last = `${response.status} ${(await response.text()).slice(0, 300)}`;
    } catch (error) {
      last = error.message;
    }
    // Polled often: the time to ready is itself measured (restart-to-ready), to within this interval.
    await sleep(25);
  }
  await handle.stop('SIGKILL');
  throw new Error(`service not ready after ${timeoutMs} ms (last /health/ready: ${last})`);
}

module.exports = { ensureBuilt, startService };
