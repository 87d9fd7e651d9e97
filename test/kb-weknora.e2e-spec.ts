/**
 * weknora_search against a stand-in speaking WeKnora's real contract (v0.7: `query` +
 * `knowledge_base_ids`, `{success, data[]}`, integer match_type, X-API-Key), with the service running
 * as its own process so every log line it writes is captured: the API key must appear in no log and
 * no response.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { freePort } from './support/free-port';
import { HttpPeer, RecordedRequest, untilCallerHangsUp } from './support/http-peer';
import { until } from './support/until';
import { connectV1, ToolCallResult } from './support/mcp-clients';
import { childEnv } from './support/child-env';

const KEY = 'sk-e2e-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const KB_REST = '/api/agent-retrieval/v1/kb';

const KNOWLEDGE_BASES = [
  { id: 'kb-a', name: 'Policies', description: 'HR policies', knowledge_count: 12 },
  { id: 'kb-b', name: 'Runbooks', description: 'Ops runbooks', knowledge_count: 7 },
];

const chunk = (id: string, score: number, matchType: number, kb = 'kb-a') => ({
  id,
  content: `content of ${id} `.repeat(3),
  knowledge_id: `doc-${id}`,
  chunk_index: 0,
  knowledge_title: `Title ${id}`,
  knowledge_filename: `${id}.pdf`,
  score,
  match_type: matchType,
  knowledge_base_id: kb,
});

describe('knowledge-base search, WeKnora backend (e2e)', () => {
  let peer: HttpPeer;
  let service: ChildProcess;
  let url: string;
  let client: Client;
  let stall = false;
  const logs: string[] = [];
  const responses: string[] = [];

  const call = async (mcp: Client, args: Record<string, unknown>): Promise<ToolCallResult> => {
    const result = (await mcp.callTool({ name: 'weknora_search', arguments: args })) as ToolCallResult;
    responses.push(JSON.stringify(result));
    return result;
  };
  const text = (result: ToolCallResult): string => (result.content as { text: string }[]).map((b) => b.text).join('');
  const searches = (): RecordedRequest[] => peer.requests.filter((r) => r.method === 'POST');
  const bodyOf = (recorded: RecordedRequest): Record<string, unknown> => JSON.parse(recorded.body);

  beforeAll(async () => {
    peer = new HttpPeer(async (recorded, response) => {
      const reply = (status: number, body: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (stall) await untilCallerHangsUp(response);
      if (recorded.headers['x-api-key'] !== KEY) {
        return reply(401, { error: 'Unauthorized: invalid or expired token' });
      }
      if (recorded.method === 'GET' && recorded.url === '/api/v1/knowledge-bases') {
        return reply(200, { success: true, data: KNOWLEDGE_BASES });
      }
      if (recorded.method === 'POST' && recorded.url === '/api/v1/knowledge-search') {
        const body = JSON.parse(recorded.body) as { query?: string; knowledge_base_ids?: string[] };
        if (!body.query || !body.knowledge_base_ids?.length) {
          return reply(400, { success: false, error: { code: 1000, message: 'knowledge base required' } });
        }
        return reply(200, {
          success: true,
          data: [chunk('c1', 0.91, 0), chunk('c2', 0.72, 1), chunk('c3', 0.45, 2), chunk('c4', 0.66, 99)],
        });
      }
      const perKb = /^\/api\/v1\/knowledge-bases\/([^/]+)\/hybrid-search$/.exec(recorded.url);
      if (recorded.method === 'POST' && perKb) {
        const kb = perKb[1];
        return reply(200, {
          success: true,
          data: [chunk(`${kb}-x`, kb === 'kb-a' ? 0.8 : 0.95, 0, kb), chunk(`${kb}-y`, 0.3, 0, kb)],
        });
      }
      return reply(404, { success: false, error: { message: 'not found' } });
    });
    const weknora = await peer.start();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    service = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'main.js')], {
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        AUTH_MODE: 'none',
        LOG_LEVEL: 'debug',
        KB_BACKEND: 'weknora',
        WEKNORA_BASE_URL: weknora,
        WEKNORA_TIMEOUT_MS: '500',
        KN_DIR: 'examples/networks',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout!.on('data', (data: Buffer) => logs.push(data.toString('utf8')));
    service.stderr!.on('data', (data: Buffer) => logs.push(data.toString('utf8')));
    await until(
      'the service answers /health/live',
      async () => {
        if (service.exitCode !== null) throw new Error(`service did not start:\n${logs.join('')}`);
        return (await fetch(`${url}/health/live`).catch(() => undefined))?.ok ?? false;
      },
      30_000,
    );
    client = await connectV1(url, { 'X-WeKnora-Api-Key': KEY });
  }, 60000);

  afterAll(async () => {
    await client?.close();
    // A service that already exited (it failed to start) emits no more 'exit': waiting would hang jest.
    if (service && service.exitCode === null && service.signalCode === null) {
      const exited = new Promise((resolve) => service!.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
    }
    await peer?.stop();
  });

  beforeEach(() => {
    peer.requests.length = 0;
    stall = false;
  });

  it('hybrid: lists the credential knowledge bases, then knowledge-search with query and knowledge_base_ids', async () => {
    const result = await call(client, { query: 'leave policy', top_k: 2 });
    expect(result.isError).toBeFalsy();
    expect(peer.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/knowledge-bases',
      'POST /api/v1/knowledge-search',
    ]);
    const sent = searches()[0];
    expect(bodyOf(sent)).toEqual({ query: 'leave policy', knowledge_base_ids: ['kb-a', 'kb-b'] });
    expect(bodyOf(sent)).not.toHaveProperty('question');
    expect(sent.headers['x-api-key']).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['x-request-id']).toBeTruthy();
    const output = result.structuredContent as { results: { id: string; match_type: string }[]; total_count: number };
    // min_score 0.5 drops c3 (0.45); top_k 2 keeps the best two of the other three.
    expect(output.total_count).toBe(3);
    expect(output.results.map((r) => [r.id, r.match_type])).toEqual([
      ['c1', 'vector'],
      ['c2', 'keyword'],
    ]);
    expect(text(result)).toContain('- **Score:** 91.0%\n- **Source:** c1.pdf\n- **Match Type:** vector\n');
    const all = await call(client, { query: 'leave policy', min_score: 0 });
    expect((all.structuredContent as { results: { match_type: string }[] }).results.map((r) => r.match_type)).toEqual([
      'vector',
      'keyword',
      'hybrid',
      'nearby_chunk',
    ]);
  });

  it.each([
    ['vector', { disable_keywords_match: true }],
    ['keyword', { disable_vector_match: true }],
  ])('%s mode: one hybrid-search per knowledge base with the disable flag, merged by score', async (mode, flag) => {
    const result = await call(client, { query: 'restart a pod', search_mode: mode });
    const perKb = searches();
    expect(perKb.map((r) => r.url).sort()).toEqual([
      '/api/v1/knowledge-bases/kb-a/hybrid-search',
      '/api/v1/knowledge-bases/kb-b/hybrid-search',
    ]);
    for (const sent of perKb) expect(bodyOf(sent)).toMatchObject({ query_text: 'restart a pod', ...flag });
    const output = result.structuredContent as { results: { id: string }[]; search_mode: string };
    expect(output.search_mode).toBe(mode);
    expect(output.results.map((r) => r.id)).toEqual(['kb-b-x', 'kb-a-x']);
  });

  it('the connection X-WeKnora-KB-IDs scope is searched without listing', async () => {
    const scoped = await connectV1(url, { 'X-WeKnora-Api-Key': KEY, 'X-WeKnora-KB-IDs': 'kb-b' });
    try {
      await call(scoped, { query: 'disk pressure' });
    } finally {
      await scoped.close();
    }
    expect(peer.requests.map((r) => r.url)).toEqual(['/api/v1/knowledge-search']);
    expect(bodyOf(peer.requests[0])).toMatchObject({ knowledge_base_ids: ['kb-b'] });
  });

  it('a rejected credential is an isError result naming it; REST answers 403', async () => {
    const wrong = await connectV1(url, { 'X-WeKnora-Api-Key': 'sk-wrong-key' });
    try {
      const result = await call(wrong, { query: 'anything' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^Search failed: 401 - WeKnora rejected the credential/);
    } finally {
      await wrong.close();
    }
    const rest = await request(url)
      .post(`${KB_REST}/search`)
      .set('X-WeKnora-Api-Key', 'sk-wrong-key')
      .send({ query: 'anything' })
      .expect(403);
    responses.push(JSON.stringify(rest.body));
    expect(rest.body.code).toBe('agentRetrieval.Forbidden.KnowledgeBaseCredentialRejected');
  });

  it('a stall past the 500 ms timeout is an isError result; REST answers 504', async () => {
    stall = true;
    // The stand-in holds its answer until the service hangs up: an answer at all is the deadline at work.
    const result = await call(client, { query: 'slow' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Search error: weknora did not answer within 500 ms');
    const rest = await request(url).post(`${KB_REST}/search`).set('X-WeKnora-Api-Key', KEY).send({ query: 'slow' });
    responses.push(JSON.stringify(rest.body));
    expect(rest.status).toBe(504);
  });

  it('REST twins answer with the header credential', async () => {
    const search = await request(url)
      .post(`${KB_REST}/search`)
      .set('X-WeKnora-Api-Key', KEY)
      .send({ query: 'leave policy', top_k: 1 })
      .expect(200);
    responses.push(JSON.stringify(search.body));
    expect(search.body).toMatchObject({ returned: 1, total_count: 3, search_mode: 'hybrid' });
    const list = await request(url).get(`${KB_REST}/knowledge-bases`).set('X-WeKnora-Api-Key', KEY).expect(200);
    responses.push(JSON.stringify(list.body));
    expect(list.body.knowledge_bases[0]).toEqual({
      id: 'kb-a',
      name: 'Policies',
      description: 'HR policies',
      document_count: 12,
    });
  });

  it('the API key is in no log line and no response of the whole run', async () => {
    // A last search whose query length no other has: once its log line is in, every earlier one is too.
    const last = await request(url)
      .post(`${KB_REST}/search`)
      .set('X-WeKnora-Api-Key', KEY)
      .send({ query: 'q'.repeat(173) });
    responses.push(JSON.stringify(last.body));
    await until('the last search is logged', () => logs.join('').includes('"query_length":173'));
    const captured = logs.join('');
    expect(captured).toContain('kb search');
    expect(captured).not.toContain(KEY);
    expect(captured).not.toContain('sk-wrong-key');
    for (const body of responses) expect(body).not.toContain(KEY);
  });
});
