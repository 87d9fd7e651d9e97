#!/usr/bin/env node
/**
 * Clients that never read, against a model that floods: five streamed completions (five accounts) whose
 * clients read nothing, while the stand-in model streams 64 KB content chunks as fast as its socket takes
 * them for BENCH_ABUSE_S seconds. The service must hold the model back (backpressure), so its memory stays
 * flat, and keep answering /health/live meanwhile; once the clients go, its memory returns near the start.
 *
 * Judged: RSS growth while the clients hang on (< 150 MB), /health/live p99 meanwhile (< 50 ms), and the
 * RSS after they went (within 50 MB of the start). Reported: what the stand-in managed to write, and the
 * RSS growth while five clients that do read take 64 MB answers back to back for BENCH_READING_S seconds
 * (a streamed turn keeps only a tail of its answer, so this stays flat too).
 *
 *   npm run build && node bench/chat-abuse.js
 *   env: BENCH_ABUSE_S (30), BENCH_ABUSE_CLIENTS (5), BENCH_READING_S (10)
 */
/* global fetch, AbortSignal, setInterval, clearInterval */
'use strict';
const http = require('node:http');
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');
const { ensureBuilt, startService } = require('./lib/service');
const { record } = require('./lib/summary');

const SECONDS = Number(process.env.BENCH_ABUSE_S || 30);
const CLIENTS = Number(process.env.BENCH_ABUSE_CLIENTS || 5);
const READING_SECONDS = Number(process.env.BENCH_READING_S || 10);
const ANSWER_BYTES = 64 * 1024 * 1024;
const PIECE = 64 * 1024;
const TARGET_RSS_GROWTH_MB = 150;
const TARGET_HEALTH_P99_MS = 50;
const TARGET_RSS_AFTER_MB = 50;

/** The model: every streamed answer is content pieces for as long as the reader takes them. */
function startFloodingModel() {
  const stats = { written: 0 };
  const piece = `data: ${JSON.stringify({ id: 'flood', object: 'chat.completion.chunk', created: 1, model: 'flood', choices: [{ index: 0, delta: { content: 'x'.repeat(PIECE) }, finish_reason: null }] })}\n\n`;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ data: [{ id: 'flood' }] }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const pump = () => {
        while (!response.destroyed) {
          stats.written += piece.length;
          if (!response.write(piece)) return void response.once('drain', pump);
        }
      };
      pump();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, stats })));
}

/** Resident memory of a process in MB, from /proc. */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** A streamed completion whose client reads nothing: the request, paused as soon as the answer starts. */
function neverReading(url, token) {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${url}/v1/chat/completions`,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } },
      (response) => {
        response.pause();
        resolve({ response, outgoing });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'flood me' }] }));
  });
}

/** /health/live latencies (ms), one probe every 20 ms, until `stop` resolves. */
async function probeLiveness(url, stop) {
  const samples = [];
  let stopped = false;
  void stop.then(() => (stopped = true));
  while (!stopped) {
    const started = process.hrtime.bigint();
    try {
      await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(5000) });
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    } catch {
      samples.push(5000);
    }
    await sleep(20);
  }
  return samples.sort((a, b) => a - b);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** Clients that read every answer (and drop it), one streamed completion after another, until `stop`. */
async function readingPhase(url, tokens, pid) {
  const start = rssMb(pid);
  let peak = start;
  let answers = 0;
  let bytes = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  const until = Date.now() + READING_SECONDS * 1000;
  await Promise.all(
    tokens.map(async (token) => {
      while (Date.now() < until) {
        const response = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'flood me' }] }),
        });
        for await (const piece of response.body) bytes += piece.length;
        answers += 1;
      }
    }),
  );
  clearInterval(sampler);
  const growth = peak - start;
  console.log(
    `${tokens.length} reading clients for ${READING_SECONDS} s: ${answers} answers, ${(bytes / 2 ** 20).toFixed(0)} MB ` +
      `received, RSS peak +${growth.toFixed(1)} MB`,
  );
  record(
    'chat-abuse',
    `RSS growth MB, ${tokens.length} clients reading 64 MB answers`,
    +growth.toFixed(1),
    'reported',
    true,
  );
}

async function main() {
  ensureBuilt();
  const model = await startFloodingModel();
  const llm = `http://127.0.0.1:${model.server.address().port}`;
  const tokens = Array.from({ length: CLIENTS }, (_, index) => `tok-${index}`);
  const service = await startService({
    knDir: path.join(__dirname, '..', 'examples', 'networks'),
    env: {
      LLM_BASE_URL: llm,
      LLM_MODEL: 'flood',
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: tokens.map((token, index) => `${token}=abuser${index}:user`).join(','),
      // The clients must hang on for the whole run: the idle cut-off is measured by the e2e suite.
      CHAT_CLIENT_IDLE_MS: String((SECONDS + 30) * 1000),
      CHAT_MAX_ANSWER_BYTES: String(ANSWER_BYTES),
    },
  });
  const pid = service.child.pid;
  try {
    // A few answers first, so the memory baseline is a warmed-up process.
    for (let index = 0; index < 3; index += 1) {
      await fetch(`${service.url}/health/live`);
    }
    await sleep(1000);
    const start = rssMb(pid);
    const clients = await Promise.all(tokens.map((token) => neverReading(service.url, token)));
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
    const liveness = probeLiveness(service.url, sleep(SECONDS * 1000));
    const latencies = await liveness;
    clearInterval(sampler);
    const during = peak - start;
    const written = model.stats.written / 2 ** 20;
    for (const { outgoing } of clients) outgoing.destroy();
    await sleep(5000);
    const after = rssMb(pid) - start;
    const p99 = quantile(latencies, 0.99);
    console.log(
      `${CLIENTS} clients reading nothing for ${SECONDS} s against a flooding model: RSS ${start.toFixed(0)} MB at the ` +
        `start, peak +${during.toFixed(1)} MB, +${after.toFixed(1)} MB 5 s after they went; the model wrote ` +
        `${written.toFixed(1)} MB in all; /health/live p50 ${quantile(latencies, 0.5).toFixed(2)} ms, ` +
        `p99 ${p99.toFixed(2)} ms over ${latencies.length} probes`,
    );
    record(
      'chat-abuse',
      `RSS growth MB, ${CLIENTS} clients reading nothing`,
      +during.toFixed(1),
      `< ${TARGET_RSS_GROWTH_MB}`,
      during < TARGET_RSS_GROWTH_MB,
    );
    record(
      'chat-abuse',
      '/health/live p99 ms meanwhile',
      +p99.toFixed(2),
      `< ${TARGET_HEALTH_P99_MS}`,
      p99 < TARGET_HEALTH_P99_MS,
    );
    record(
      'chat-abuse',
      'RSS MB above the start, 5 s after they went',
      +after.toFixed(1),
      `< ${TARGET_RSS_AFTER_MB}`,
      after < TARGET_RSS_AFTER_MB,
    );
    record('chat-abuse', 'MB the model managed to write', +written.toFixed(1), 'reported', true);
    await readingPhase(service.url, tokens, pid);
  } finally {
    await service.stop();
    model.server.closeAllConnections();
    model.server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
