#!/usr/bin/env node
/**
 * What the service costs an agent's context window: the bytes and tokens of `tools/list` (a clinic
 * connection, a connection without X-Kn-ID, a k8s_ops connection), of the tool definitions the chat model
 * is sent in its first round, and of the answers of 20 fixed MCP tool calls on the two demo networks
 * (plus the REST answer of kn_search for 糖尿病治疗方案). Sizes, not timings: one request each, no load.
 *
 *   npm run build && node bench/agent-context.js
 *   node bench/agent-context.js --json after.json                # also write the figures as JSON
 *   node bench/agent-context.js --compare before.json            # print before → after for each row
 *   AGENT_CONTEXT_ROOT=/path/to/other/checkout node bench/agent-context.js --json before.json
 *
 * Tokens are counted with `gpt-tokenizer` (o200k_base, the GPT-4o/GPT-5 encoding): other models'
 * tokenizers differ by a few percent, the ratios between rows do not.
 */
/* global fetch, Buffer */
'use strict';
const http = require('node:http');
const { mkdtempSync, writeFileSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { encode } = require('gpt-tokenizer');

/** Another checkout's built service (its own dist/ and examples/), to measure "before" with this script. */
const ROOT = process.env.AGENT_CONTEXT_ROOT ? path.resolve(process.env.AGENT_CONTEXT_ROOT) : path.join(__dirname, '..');
const { ensureBuilt, startService } = require(path.join(ROOT, 'bench', 'lib', 'service'));
const MCP = '/api/agent-retrieval/v1/mcp';
const QUESTION = '糖尿病患者开过哪些处方？';

const PATIENT = 'P00276';
const patientIs = (value) => ({ operation: '==', field: 'patient_id', value, value_from: 'const' });
const diagnosisPath = {
  object_types: [
    { id: 'patient', condition: patientIs(PATIENT), limit: 1 },
    { id: 'diagnosis', limit: 10 },
  ],
  relation_types: [
    {
      relation_type_id: 'patient_diagnosed_with',
      source_object_type_id: 'patient',
      target_object_type_id: 'diagnosis',
    },
  ],
};
const podOnNode = {
  object_types: [
    {
      id: 'pod',
      condition: { operation: '==', field: 'status', value: 'CrashLoopBackOff', value_from: 'const' },
      limit: 5,
    },
    { id: 'node', limit: 5 },
  ],
  relation_types: [
    { relation_type_id: 'pod_runs_on_node', source_object_type_id: 'pod', target_object_type_id: 'node' },
  ],
};

/** The 20 calls: ten per demo network, the questions an agent asks first (search, filter, follow, act). */
const CALLS = [
  ['clinic', 'kn_search', { query: '糖尿病治疗方案' }],
  ['clinic', 'kn_search', { query: '高血压 用药', only_schema: true }],
  ['clinic', 'kn_schema_search', { query: '患者' }],
  ['clinic', 'search_schema', { query: '处方 药品' }],
  ['clinic', 'query_object_instance', { ot_id: 'patient', limit: 10 }],
  ['clinic', 'query_object_instance', { ot_id: 'visit', condition: patientIs(PATIENT), limit: 20 }],
  ['clinic', 'query_instance_subgraph', { relation_type_paths: [diagnosisPath] }],
  [
    'clinic',
    'resolve_logic_properties',
    {
      ot_id: 'patient',
      query: '累计就诊几次',
      _instance_identities: [{ patient_id: PATIENT }],
      properties: ['visit_total'],
    },
  ],
  ['clinic', 'get_action_info', { at_id: 'create_prescription', _instance_identities: [{ patient_id: PATIENT }] }],
  ['clinic', 'find_skills', { object_type_id: 'patient' }],
  ['k8s_ops', 'kn_search', { query: 'pod crash looping alerts' }],
  ['k8s_ops', 'kn_search', { query: '节点 NotReady' }],
  ['k8s_ops', 'kn_schema_search', { query: 'deployment replicas' }],
  ['k8s_ops', 'search_schema', { query: 'pod node' }],
  ['k8s_ops', 'query_object_instance', { ot_id: 'pod', limit: 10 }],
  ['k8s_ops', 'query_object_instance', { ot_id: 'alert', limit: 20 }],
  ['k8s_ops', 'query_instance_subgraph', { relation_type_paths: [podOnNode] }],
  [
    'k8s_ops',
    'get_action_info',
    { at_id: 'scale_deployment', _instance_identities: [{ deployment_id: 'payments/refund-worker' }] },
  ],
  ['k8s_ops', 'find_skills', { object_type_id: 'pod' }],
  ['k8s_ops', 'get_kn_detail', {}],
];

const bytesOf = (text) => Buffer.byteLength(text);
const tokensOf = (text) => encode(text).length;

async function rpc(url, method, params, headers) {
  const response = await fetch(`${url}${MCP}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await response.json();
  if (body.error) throw new Error(`${method} answered ${JSON.stringify(body.error)}`);
  return body.result;
}

/** An OpenAI-compatible model that records what it is sent and answers in text. */
function startModel(bodies) {
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      if (request.url.endsWith('/models')) return response.end(JSON.stringify({ data: [{ id: 'bench-model' }] }));
      bodies.push(JSON.parse(body));
      const message = { role: 'assistant', content: 'ok' };
      response.end(
        JSON.stringify({ id: 'b', created: 1, model: 'bench-model', choices: [{ message, finish_reason: 'stop' }] }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** One row: the whole JSON a client receives, and the text content a model reads when it reads only that. */
function answerRow(name, result) {
  const whole = JSON.stringify(result);
  const text = (result.content ?? []).map((block) => block.text ?? '').join('\n');
  return { name, bytes: bytesOf(whole), tokens: tokensOf(whole), textBytes: bytesOf(text), textTokens: tokensOf(text) };
}

function listRow(name, value) {
  const json = JSON.stringify(value);
  return { name, bytes: bytesOf(json), tokens: tokensOf(json), count: Array.isArray(value) ? value.length : undefined };
}

async function measure(url, bodies) {
  const rows = [];
  const lists = [
    ['tools/list clinic (X-Kn-ID)', { 'x-kn-id': 'clinic' }],
    ['tools/list k8s_ops (X-Kn-ID)', { 'x-kn-id': 'k8s_ops' }],
    ['tools/list without X-Kn-ID', {}],
    ['tools/list clinic, zh-Hans', { 'x-kn-id': 'clinic', 'accept-language': 'zh-Hans' }],
  ];
  for (const [name, headers] of lists) rows.push(listRow(name, (await rpc(url, 'tools/list', {}, headers)).tools));
  const chat = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: QUESTION }], kn_id: 'clinic' }),
  });
  if (!chat.ok) throw new Error(`chat answered ${chat.status}: ${await chat.text()}`);
  rows.push(listRow('chat definitions, first round', bodies[0].tools ?? []));
  const rest = await fetch(`${url}/api/agent-retrieval/v1/kn/kn_search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-kn-id': 'clinic' },
    body: JSON.stringify({ query: '糖尿病治疗方案' }),
  });
  const restText = await rest.text();
  rows.push({ name: 'REST kn_search 糖尿病治疗方案', bytes: bytesOf(restText), tokens: tokensOf(restText) });
  const calls = [];
  for (const [knId, tool, args] of CALLS) {
    const result = await rpc(url, 'tools/call', { name: tool, arguments: args }, { 'x-kn-id': knId });
    calls.push(answerRow(`${knId} ${tool}`, result));
  }
  return { rows, calls };
}

function sum(rows, key) {
  return rows.reduce((total, row) => total + (row[key] ?? 0), 0);
}

function print(figures, before) {
  const find = (list, name, index) =>
    list?.find((row, at) => row.name === name && (index === undefined || at === index));
  const cell = (value, old) => (old === undefined ? String(value) : `${old} → ${value}`);
  console.log('| measured | bytes | tokens |');
  console.log('|---|---:|---:|');
  for (const row of figures.rows) {
    const old = find(before?.rows, row.name);
    console.log(
      `| ${row.name}${row.count !== undefined ? ` (${row.count} tools)` : ''} | ${cell(row.bytes, old?.bytes)} | ${cell(row.tokens, old?.tokens)} |`,
    );
  }
  console.log('\n| tool call | answer bytes | answer tokens | text bytes | text tokens |');
  console.log('|---|---:|---:|---:|---:|');
  figures.calls.forEach((row, index) => {
    const old = before?.calls?.[index];
    const keys = ['bytes', 'tokens', 'textBytes', 'textTokens'];
    console.log(`| ${row.name} | ${keys.map((key) => cell(row[key], old?.[key])).join(' | ')} |`);
  });
  const keys = ['bytes', 'tokens', 'textBytes', 'textTokens'];
  const total = keys.map((key) => cell(sum(figures.calls, key), before ? sum(before.calls, key) : undefined));
  console.log(`| **20 calls** | ${total.join(' | ')} |`);
}

function option(name) {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

async function main() {
  ensureBuilt();
  const bodies = [];
  const model = await startModel(bodies);
  const scratch = mkdtempSync(path.join(tmpdir(), 'agent-context-'));
  const env = { LLM_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`, WORKSPACE_ROOT: path.join(scratch, 'ws') };
  const service = await startService({ knDir: path.join(ROOT, 'examples', 'networks'), env });
  try {
    const figures = await measure(service.url, bodies);
    const comparePath = option('--compare');
    print(figures, comparePath ? JSON.parse(readFileSync(comparePath, 'utf8')) : undefined);
    const jsonPath = option('--json');
    if (jsonPath) writeFileSync(jsonPath, JSON.stringify(figures, null, 2));
  } finally {
    await service.stop();
    model.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
