#!/usr/bin/env node
/**
 * Streaming chat overhead: time to first content byte and total time of a streamed answer through
 * the service (POST /v1/chat/completions, no server tool called) versus straight from the stand-in
 * model, in the same run, 20 connections. Two minimal proxies doing the same re-framing
 * (lib/floor-proxy.js) run beside it as references: on bare node:http, what any proxy process adds on
 * this machine; on Express with its JSON body parser, what the service's framework adds to that.
 *
 * The service is warmed up first (its CPU per answer keeps falling over the first several thousand
 * answers), then direct and through-the-service rounds alternate, so a noisy neighbour on a shared
 * machine lands on both sides; the verdict is the median of the rounds' added p50.
 *
 * A second, reported phase paces the model like a real one (BENCH_PACE_MS between chunks): the
 * service is then far from saturated, so the added time is no longer queueing behind a busy thread.
 *
 *   npm run build && node bench/chat.js
 *   env: BENCH_CONNECTIONS (20), BENCH_REQUESTS per round and side (2000), BENCH_CHUNKS per answer (20),
 *        BENCH_WARMUP rounds through the service (3), BENCH_ROUNDS measured (5),
 *        BENCH_PACE_MS (20), BENCH_PACED_REQUESTS per round and side (400), BENCH_PACED_ROUNDS (3; 0 skips)
 */
/* global fetch, TextDecoder, setTimeout */
'use strict';
const http = require('node:http');
const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { ensureBuilt, startService } = require('./lib/service');
const { record } = require('./lib/summary');
const { hostLoad } = require('./lib/host');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 2000);
const CHUNKS = Number(process.env.BENCH_CHUNKS || 20);
const WARMUP = Number(process.env.BENCH_WARMUP || 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
/** Issue 13's target for the p50 the service adds to the first content (judged rounds only). */
const TARGET_ADDED_MS = 5;
const PACE_MS = Number(process.env.BENCH_PACE_MS || 20);
const PACED_REQUESTS = Number(process.env.BENCH_PACED_REQUESTS || 400);
const PACED_ROUNDS = Number(process.env.BENCH_PACED_ROUNDS ?? 3);
/** The model name that asks the stand-in for a paced answer; any other name gets the whole answer at once. */
const PACED_MODEL = 'bench-paced';
/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat (100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * An OpenAI-compatible model streaming CHUNKS content deltas, then [DONE]: all in one write, or for the
 * model PACED_MODEL, one chunk every PACE_MS (the role frame at once, so the first content comes after one pace).
 */
function startStandin() {
  const base = { id: 'bench', object: 'chat.completion.chunk', created: 1, model: 'bench-model' };
  const frame = (delta, finish = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [frame({ role: 'assistant', content: '' })];
  for (let i = 0; i < CHUNKS; i += 1) frames.push(frame({ content: `word${i} ` }));
  frames.push(`${frame({}, 'stop')}data: [DONE]\n\n`);
  const whole = frames.join('');
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      if (request.url.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: [{ id: 'bench-model' }, { id: PACED_MODEL }] }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (JSON.parse(body).model !== PACED_MODEL) {
        response.end(whole);
        return;
      }
      let next = 0;
      const send = () => {
        if (response.destroyed) return;
        response.write(frames[next]);
        next += 1;
        if (next < frames.length) setTimeout(send, PACE_MS);
        else response.end();
      };
      send();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One streamed request: ms to the first frame with content, ms to the end of the body. */
async function timed(url, body) {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let first;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first === undefined && text.includes('"content":"word')) first = process.hrtime.bigint();
  }
  if (!text.includes('data: [DONE]')) throw new Error(`incomplete stream from ${url}: ${text.slice(0, 200)}`);
  const end = process.hrtime.bigint();
  return { ttfb: Number(first - started) / 1e6, total: Number(end - started) / 1e6 };
}

async function load(url, body, requests = REQUESTS) {
  const samples = [];
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next += 1;
      samples.push(await timed(url, body));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const pick = (key, q) => {
    const sorted = samples.map((sample) => sample[key]).sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  };
  return {
    ttfbP50: pick('ttfb', 0.5),
    ttfbP99: pick('ttfb', 0.99),
    totalP50: pick('total', 0.5),
    totalP99: pick('total', 0.99),
  };
}

/** A reference proxy (`bare` or `express`) as a child process, like the service: its URL and the child. */
async function startFloorProxy(llm, kind) {
  const child = fork(path.join(__dirname, 'lib', 'floor-proxy.js'), [llm, kind], { stdio: 'inherit' });
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`floor proxy exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The columns both phases print for a round: direct, through the service, and what the service added. */
function comparisonColumns(direct, via) {
  return {
    'direct ttfb p50': direct.ttfbP50.toFixed(2),
    'via ttfb p50': via.ttfbP50.toFixed(2),
    'added ttfb p50': (via.ttfbP50 - direct.ttfbP50).toFixed(2),
    'added total p50': (via.totalP50 - direct.totalP50).toFixed(2),
    'direct ttfb p99': direct.ttfbP99.toFixed(2),
    'via ttfb p99': via.ttfbP99.toFixed(2),
  };
}

/**
 * The median over rounds of what one side (the service, `via`, unless named) added at p50: to the first
 * content and to the end.
 */
function addedMedians(rounds, side = 'via') {
  return {
    ttfb: median(rounds.map((round) => round[side].ttfbP50 - round.direct.ttfbP50)),
    total: median(rounds.map((round) => round[side].totalP50 - round.direct.totalP50)),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** CPU time (user + system, ms) a process has used, from /proc; undefined where there is no /proc. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * The request bodies for `model`: to the stand-in, and to the service with tool_choice none (the model
 * gets no tools, so both sides stream the same answer).
 */
function requestBodies(model) {
  const request = { model, stream: true, messages: [{ role: 'user', content: 'hello' }] };
  return { direct: JSON.stringify(request), via: JSON.stringify({ ...request, tool_choice: 'none' }) };
}

/**
 * The same comparison with the model pacing its chunks: 20 connections then leave the service far from
 * saturation (the clients still start in step, so requests arrive in bursts). Reported, not judged.
 */
async function pacedPhase(llm, service) {
  const bodies = requestBodies(PACED_MODEL);
  const rounds = [];
  for (let round = 0; round < PACED_ROUNDS; round += 1) {
    const straight = await load(`${llm}/v1/chat/completions`, bodies.direct, PACED_REQUESTS);
    const through = await load(`${service.url}/v1/chat/completions`, bodies.via, PACED_REQUESTS);
    rounds.push({ direct: straight, via: through });
  }
  console.log(
    `paced: ${PACED_REQUESTS} answers of ${CHUNKS} chunks ${PACE_MS} ms apart per round and side, ` +
      `${CONNECTIONS} connections, ${PACED_ROUNDS} rounds`,
  );
  console.table(rounds.map(({ direct, via }, index) => ({ round: index + 1, ...comparisonColumns(direct, via) })));
  const { ttfb: added, total: addedTotal } = addedMedians(rounds);
  console.log(
    `paced: added p50, median of ${PACED_ROUNDS} rounds: time to first content ${added.toFixed(2)} ms, ` +
      `total ${addedTotal.toFixed(2)} ms`,
  );
  record('chat', `paced ${PACE_MS} ms/chunk: added p50 ms to first content`, +added.toFixed(2), 'reported', true);
  record('chat', `paced ${PACE_MS} ms/chunk: added p50 ms total`, +addedTotal.toFixed(2), 'reported', true);
}

async function main() {
  ensureBuilt();
  console.log(`chat bench: ${hostLoad()}`);
  const standin = await startStandin();
  const llm = `http://127.0.0.1:${standin.address().port}`;
  const service = await startService({
    knDir: path.join(__dirname, '..', 'examples', 'networks'),
    // One anonymous account runs every connection: its completions-in-progress cap must not be what is measured.
    env: {
      LLM_BASE_URL: llm,
      LLM_MODEL: 'bench-model',
      LOG_LEVEL: 'warn',
      CHAT_MAX_STREAMS_PER_ACCOUNT: String(CONNECTIONS * 2),
    },
    nodeArgs: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
  });
  const floors = {};
  try {
    // Started inside the try, so a reference proxy that fails to start still lets the service be stopped.
    floors.bare = await startFloorProxy(llm, 'bare');
    floors.express = await startFloorProxy(llm, 'express');
    const bodies = requestBodies('bench-model');
    const direct = () => load(`${llm}/v1/chat/completions`, bodies.direct);
    const via = () => load(`${service.url}/v1/chat/completions`, bodies.via);
    const floor = (kind) => () => load(`${floors[kind].url}/v1/chat/completions`, bodies.direct);
    /** A round through a process, with that process's CPU ms per answer. */
    const measured = async (run, pid) => {
      const before = cpuMs(pid);
      const result = await run();
      return { ...result, cpu: before === undefined ? undefined : (cpuMs(pid) - before) / REQUESTS };
    };
    await direct();
    await floor('bare')();
    await floor('express')();
    for (let round = 0; round < WARMUP; round += 1) await via();
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const straight = await direct();
      const through = await measured(via, service.child.pid);
      const bare = await measured(floor('bare'), floors.bare.child.pid);
      const onExpress = await measured(floor('express'), floors.express.child.pid);
      rounds.push({ direct: straight, via: through, bare, express: onExpress });
    }
    const fixed = (value) => (value === undefined ? '–' : value.toFixed(2));
    console.log(
      `${REQUESTS} streamed answers of ${CHUNKS} chunks per round and side, ${CONNECTIONS} connections, ` +
        `${WARMUP} warm-up rounds, ${ROUNDS} measured; after them, ${hostLoad()}`,
    );
    console.table(
      rounds.map(({ direct: d, via: v, bare: b, express: e }, index) => ({
        round: index + 1,
        ...comparisonColumns(d, v),
        'service CPU ms/answer': fixed(v.cpu),
        'bare proxy added': fixed(b.ttfbP50 - d.ttfbP50),
        'bare proxy CPU': fixed(b.cpu),
        'Express proxy added': fixed(e.ttfbP50 - d.ttfbP50),
        'Express proxy CPU': fixed(e.cpu),
      })),
    );
    const { ttfb: added, total: addedTotal } = addedMedians(rounds);
    const floorAdded = (kind) => addedMedians(rounds, kind).ttfb;
    console.log(
      `added p50, median of ${ROUNDS} rounds: time to first content ${added.toFixed(2)} ms, ` +
        `total ${addedTotal.toFixed(2)} ms (target < ${TARGET_ADDED_MS} ms); to first content, the bare proxy ` +
        `${floorAdded('bare').toFixed(2)} ms, the Express proxy ${floorAdded('express').toFixed(2)} ms`,
    );
    record(
      'chat',
      `streamed: added p50 ms to first content (median of ${ROUNDS} rounds)`,
      +added.toFixed(2),
      `< ${TARGET_ADDED_MS}`,
      added < TARGET_ADDED_MS,
    );
    record('chat', 'streamed: added p50 ms total', +addedTotal.toFixed(2), 'reported', true);
    for (const kind of ['bare', 'express']) {
      const measure = `streamed: ${kind} reference proxy added p50 ms to first content`;
      record('chat', measure, +floorAdded(kind).toFixed(2), 'reported', true);
    }
    if (PACED_ROUNDS > 0) await pacedPhase(llm, service);
  } finally {
    for (const { child } of Object.values(floors)) child.kill();
    await service.stop();
    standin.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
