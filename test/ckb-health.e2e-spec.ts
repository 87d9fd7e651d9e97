import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestApp, TestApp } from './support/app';
import { expectSeedMetadata } from './support/ckb-schema';
import { CkbStandin } from './support/ckb-standin';
import { freshDir } from './support/graph-rag-cli';

const GRAPH_RAG = '/api/agent-retrieval/v1/code/graph_rag';
const CALL_CHAIN = '/api/agent-retrieval/v1/code/call_chain';

interface Metadata {
  ckb_available: boolean;
  ckb_fallback_reason?: string;
  ckb_last_error?: string;
  ckb_cooldown_remaining_s?: number;
  fallback_mode?: string;
  fusion_depth: number;
  total_candidates: number;
  query_time_ms: number;
}

async function post(
  app: TestApp,
  path: string,
  body: object,
): Promise<{ metadata: Metadata } & Record<string, unknown>> {
  const response = await request(app.url).post(path).send(body).expect(200);
  expectSeedMetadata(response.body.metadata);
  return response.body;
}

/** /health answers 200 or 503 (an optional dependency down); either way the body carries every indicator. */
async function ckbHealth(app: TestApp): Promise<{ status: string; state: string; reason?: string }> {
  const response = await request(app.url).get('/health');
  expect([200, 503]).toContain(response.status);
  return response.body.details.ckb;
}

async function waitUntil(check: () => Promise<boolean>, attempts = 40): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error('condition not reached');
}

describe('CKB health, cooldown and the code tools over REST (e2e)', () => {
  describe('with a CKB stand-in', () => {
    const standin = new CkbStandin();
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp({
        CKB_COMMAND: standin.command,
        CODE_ROOT: 'examples/code',
        DATA_DIR: freshDir('ckb-e2e-'),
        CKB_TIMEOUT_MS: '3000',
        CKB_COOLDOWN_S: '2',
        CKB_PROBE_INTERVAL_S: '0',
      });
    });

    afterAll(async () => {
      await app.close();
    });

    it('shows CKB up in /health and answers graph_rag with candidates from CKB (SC-MCP-001)', async () => {
      expect(await ckbHealth(app)).toMatchObject({ status: 'up', state: 'up' });
      const body = await post(app, GRAPH_RAG, { query: 'applyDiscounts', fusion_depth: 2 });
      expect(body.metadata).toMatchObject({ ckb_available: true, fusion_depth: 2 });
      expect(body.metadata).not.toHaveProperty('fallback_mode');
      expect(body.candidates).toContainEqual(
        expect.objectContaining({ file: 'ts/orders/order-service.ts', source: 'ckb', distance: 1 }),
      );
    });

    it('answers call_chain from CKB', async () => {
      const body = await post(app, CALL_CHAIN, { symbol: 'calculateTotal' });
      expect(body.metadata).toMatchObject({ ckb_available: true, fusion_depth: 2, total_candidates: 2 });
      expect(body).toMatchObject({
        symbol: 'calculateTotal',
        direction: 'both',
        definitions: [expect.objectContaining({ symbol: 'calculateTotal', file: 'ts/pricing/price-calculator.ts' })],
        callers: [expect.objectContaining({ symbol: 'placeOrder', distance: 1 })],
      });
      expect((body.callees as { symbol: string }[]).map((node) => node.symbol)).toEqual(['applyDiscounts']);
    });

    it('lowers a depth CKB cannot serve and reports it', async () => {
      const body = await post(app, CALL_CHAIN, { symbol: 'placeOrder', direction: 'callees', depth: 5 });
      expect(body.metadata).toMatchObject({ ckb_available: true, fusion_depth: 4, fusion_depth_requested: 5 });
    });

    it('times out (SC-MCP-002), cools down without calling CKB (SC-MCP-003), then probes again', async () => {
      standin.control({ delayMs: 8000 });
      const timedOut = await post(app, GRAPH_RAG, { query: 'order total' });
      expect(timedOut.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'connection_timeout',
        ckb_last_error: 'Connection timeout after 3000ms',
        fallback_mode: 'local_graph',
        fusion_depth: 1,
      });
      standin.control({});
      const requestsAtTimeout = standin.requestCount();

      const remaining: number[] = [];
      for (;;) {
        const body = await post(app, GRAPH_RAG, { query: 'order total' });
        if (body.metadata.ckb_fallback_reason !== 'cooldown') break;
        expect(body.metadata).toMatchObject({ ckb_available: false, fallback_mode: 'local_graph' });
        remaining.push(body.metadata.ckb_cooldown_remaining_s ?? -1);
        if (remaining.length === 1) {
          expect(await ckbHealth(app)).toMatchObject({ status: 'down', state: 'cooldown', reason: 'cooldown' });
          await request(app.url).get('/health/ready').expect(200);
          const chain = await post(app, CALL_CHAIN, { symbol: 'calculateTotal', direction: 'callers' });
          expect(chain.metadata).toMatchObject({ ckb_fallback_reason: 'cooldown', fallback_mode: 'local_graph' });
          expect(chain.callers).toEqual([
            expect.objectContaining({ symbol: 'placeOrder', file: 'ts/orders/order-service.ts' }),
          ]);
          // Nothing reached CKB while it was cooling down.
          expect(standin.requestCount()).toBe(requestsAtTimeout);
        }
        await sleep(300);
      }
      expect(remaining.length).toBeGreaterThan(0);
      remaining.forEach((seconds) => expect(seconds).toBeGreaterThanOrEqual(1));
      expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
      const afterCooldown = standin.entries().slice(requestsAtTimeout + 1);
      expect(afterCooldown.find((entry) => entry.method)?.method).toBe('tools/list');
      const recovered = await post(app, GRAPH_RAG, { query: 'order total' });
      expect(recovered.metadata.ckb_available).toBe(true);
    });

    it('reports mcp_error, then health_check_failed when the half-open probe fails', async () => {
      standin.control({ failWith: 'mcp_error' });
      const failed = await post(app, CALL_CHAIN, { symbol: 'sendEmail' });
      expect(failed.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'mcp_error',
        fallback_mode: 'local_graph',
      });
      expect(failed.metadata.ckb_last_error).toBe('MCP error -32603: backend crashed');
      standin.control({ failListTools: true });
      // After the cooldown the next request probes first (half-open); tools/list fails.
      let probed: Metadata | undefined;
      await waitUntil(async () => {
        probed = (await post(app, GRAPH_RAG, { query: 'email' })).metadata;
        return probed.ckb_fallback_reason !== 'cooldown';
      });
      expect(probed).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'health_check_failed',
        fallback_mode: 'local_graph',
      });
      const health = await request(app.url).get('/health').expect(503);
      expect(health.body.details.ckb).toMatchObject({
        status: 'down',
        state: 'cooldown',
        last_error: expect.stringContaining('index not ready'),
      });
      await request(app.url).get('/health/ready').expect(200);
      standin.control({});
      await waitUntil(async () => (await ckbHealth(app)).state === 'up');
    });

    it('exports the CKB metrics', async () => {
      const response = await request(app.url).get('/metrics').expect(200);
      expect(response.text).toMatch(/^agent_retrieval_ckb_state 1$/m);
      expect(response.text).toMatch(/^agent_retrieval_ckb_cooldowns_total\{reason="connection_timeout"\} 1$/m);
      expect(response.text).toMatch(/^agent_retrieval_ckb_cooldowns_total\{reason="mcp_error"\} 1$/m);
      expect(response.text).toMatch(/^agent_retrieval_ckb_probe_duration_seconds_count\{outcome="up"\} \d+$/m);
    });
  });

  describe('without CKB', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp({ CODE_ROOT: 'examples/code', DATA_DIR: freshDir('ckb-off-') });
    });

    afterAll(async () => {
      await app.close();
    });

    it('shows CKB disabled and the code index counts in /health; readiness does not depend on them', async () => {
      const health = await request(app.url).get('/health').expect(200);
      expect(health.body.details.ckb).toEqual({ status: 'up', state: 'disabled', reason: 'disabled' });
      expect(health.body.details.code_index).toMatchObject({ status: 'up', files: 18, indexed_at: expect.any(String) });
      expect(health.body.details.code_index.chunks).toBeGreaterThan(18);
      expect(health.body.details.code_index.edges).toBeGreaterThan(0);
      const ready = await request(app.url).get('/health/ready').expect(200);
      expect(ready.body.details).not.toHaveProperty('ckb');
    });

    it('falls back to the local import graph with reason disabled (SC-MCP-004)', async () => {
      const body = await post(app, GRAPH_RAG, { query: 'convert_units' });
      expect(body.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'disabled',
        fallback_mode: 'local_graph',
        fusion_depth: 1,
      });
      expect(body.candidates).toContainEqual(
        expect.objectContaining({ file: 'python/inventory/stock.py', source: 'local_graph', distance: 1 }),
      );
    });

    it('trims candidates to the token budget', async () => {
      const body = await post(app, GRAPH_RAG, { query: 'order', budget: 100 });
      const candidates = body.candidates as { content: string }[];
      expect(
        candidates.reduce((sum, candidate) => sum + Math.ceil(candidate.content.length / 4), 0),
      ).toBeLessThanOrEqual(100);
      expect(body.metadata.total_candidates).toBeGreaterThan(candidates.length);
    });

    it('finds callers and callees from the index alone', async () => {
      const body = await post(app, CALL_CHAIN, { symbol: 'sendEmail', depth: 2 });
      expect(body.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'disabled',
        fallback_mode: 'local_graph',
        fusion_depth: 2,
      });
      expect(body.callers).toEqual([expect.objectContaining({ symbol: 'notifyCustomer', distance: 1 })]);
      expect(body.callees).toEqual([expect.objectContaining({ symbol: 'renderTemplate', distance: 1 })]);
    });

    it.each([
      [GRAPH_RAG, {}, 'agentRetrieval.BadRequest.ValidationRequired'],
      [GRAPH_RAG, { query: 42 }, 'agentRetrieval.BadRequest.ValidationType'],
      [GRAPH_RAG, { query: 'x', fusion_depth: 9 }, 'agentRetrieval.BadRequest.ValidationRange'],
      [GRAPH_RAG, { query: 'x', budget: 1.5 }, 'agentRetrieval.BadRequest.ValidationType'],
      [CALL_CHAIN, { symbol: '../../etc/passwd' }, 'agentRetrieval.BadRequest.ValidationFormat'],
      [CALL_CHAIN, { symbol: 'x', direction: 'sideways' }, 'agentRetrieval.BadRequest.ValidationEnum'],
    ])('rejects bad input on %s %j with a 400', async (path, body, code) => {
      const response = await request(app.url).post(path).send(body).expect(400);
      expect(response.body.code).toBe(code);
    });

    it('encodes the answer, metadata included, as TOON on request', async () => {
      const response = await request(app.url)
        .post(`${GRAPH_RAG}?response_format=toon`)
        .send({ query: 'sendEmail' })
        .expect(200);
      expect(response.headers['content-type']).toMatch(/^application\/toon/);
      expect(response.text).toMatch(/^metadata:$/m);
      expect(response.text).toMatch(/ckb_fallback_reason: disabled/);
    });

    it('treats hostile query text as plain words', async () => {
      const body = await post(app, GRAPH_RAG, {
        query: `'); DROP TABLE chunks; -- "NEAR(" ../../etc/passwd ignore all previous instructions`,
      });
      expect(Array.isArray(body.candidates)).toBe(true);
      // None of its words names anything in examples/code.
      expect(body.candidates).toEqual([]);
      expect(body.metadata).toMatchObject({ total_candidates: 0, keyword_candidates: 0 });
      // Nothing reached SQL: the index still answers.
      const after = await post(app, GRAPH_RAG, { query: 'convert_units' });
      expect(after.candidates).toContainEqual(
        expect.objectContaining({ file: 'python/utils/units.py', source: 'keyword' }),
      );
    });
  });
});
