#!/usr/bin/env node
// `npm test`: lint, build, the unit and end-to-end tests and the retrieval eval, as one run. Steps that do
// not need each other run side by side — the checks two at a time (they are CPU-bound and the machine has
// two cores), the tests as soon as the build is there — and a table of each step's wall time closes the run.
// The first failing step stops the others; the exit code is 1 then. See docs/development.md.
const { spawn } = require('node:child_process');
const { Buffer } = require('node:buffer');
const { loadavg } = require('node:os');

/** `after`: steps that must have passed first; `cpu`: takes one of the CHECK_SLOTS; `live`: output streamed. */
const STEPS = [
  { name: 'build', script: 'build', cpu: true },
  { name: 'lint:eslint', script: 'lint:eslint', cpu: true },
  { name: 'lint:types', script: 'lint:types', cpu: true },
  { name: 'lint:format', script: 'lint:format', cpu: true },
  { name: 'tests (unit + e2e)', script: 'test:jest', after: ['build'], live: true },
  { name: 'eval', script: 'eval', after: ['build'] },
];
const CHECK_SLOTS = 2;

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const state = new Map(STEPS.map((step) => [step.name, { status: 'waiting' }]));
let failed = false;

function runStep(step) {
  const entry = state.get(step.name);
  entry.status = 'running';
  entry.start = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Own process group, so a failure elsewhere can stop the step with everything it started.
  const child = spawn(npm, ['run', '--silent', step.script], {
    stdio: step.live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  entry.child = child;
  const output = [];
  child.stdout?.on('data', (data) => output.push(data));
  child.stderr?.on('data', (data) => output.push(data));
  child.on('close', (code, signal) => {
    entry.ms = Date.now() - entry.start;
    entry.status = code === 0 ? 'passed' : signal ? 'stopped' : 'failed';
    const text = Buffer.concat(output).toString('utf8').trimEnd();
    if (text) process.stderr.write(`\n── ${step.name} ──\n${text}\n`);
    process.stderr.write(`── ${step.name}: ${entry.status} in ${seconds(entry.ms)} ──\n`);
    if (entry.status === 'failed' && !failed) stopAll();
    schedule();
  });
}

function stopAll() {
  failed = true;
  for (const entry of state.values()) {
    if (entry.status !== 'running') continue;
    try {
      process.kill(-entry.child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function ready(step) {
  return (step.after ?? []).every((name) => state.get(name).status === 'passed');
}

function schedule() {
  if (!failed) {
    let busy = STEPS.filter((step) => step.cpu && state.get(step.name).status === 'running').length;
    for (const step of STEPS) {
      if (state.get(step.name).status !== 'waiting' || !ready(step)) continue;
      if (step.cpu && busy >= CHECK_SLOTS) continue;
      if (step.cpu) busy += 1;
      runStep(step);
    }
  }
  if ([...state.values()].some((entry) => entry.status === 'running')) return;
  report();
}

function report() {
  const rows = STEPS.map((step) => {
    const entry = state.get(step.name);
    return `  ${step.name.padEnd(22)} ${entry.status.padEnd(8)} ${entry.ms === undefined ? '' : seconds(entry.ms)}`;
  });
  process.stderr.write(
    `\nnpm test: ${failed ? 'FAILED' : 'passed'} in ${seconds(Date.now() - started)} (load average at the end ${load()})\n` +
      `${rows.join('\n')}\n`,
  );
  process.exit(failed ? 1 : 0);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll();
    process.exit(1);
  });
}
process.stderr.write(`npm test: load average at the start ${load()}\n`);
schedule();
