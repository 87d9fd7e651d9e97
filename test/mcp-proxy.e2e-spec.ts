import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { ScratchDir, scratchDir, testMcpServers } from './support/mcp-fixtures';

const PROXY = '/api/agent-retrieval/in/v1/mcp/proxy';

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 20000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('MCP proxy (e2e, embedded operators, real stdio MCP servers)', () => {
  let app: TestApp;
  let scratch: ScratchDir;
  let pidFile: string;

  beforeAll(async () => {
    scratch = scratchDir('mcp-proxy');
    pidFile = path.join(scratch.dir, 'clinic-tools.pid');
    const serversFile = scratch.file('mcp.json', testMcpServers(pidFile));
    app = await startTestApp({
      MCP_SERVERS_FILE: serversFile,
      KN_DIR: scratch.dir,
      MCP_CALL_TIMEOUT_MS: '4000',
      MCP_RECONNECT_BACKOFF_MS: '1500',
    });
  });

  afterAll(async () => {
    await app.close();
    scratch.remove();
  });

  it('passes flat arguments to server-everything and its real result back', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/everything/tools/echo/call`)
      .set(INTERNAL_CALLER)
      .send({ message: '你好 proxy' })
      .expect(200);
    expect(response.body).toEqual({ content: [{ type: 'text', text: 'Echo: 你好 proxy' }] });
    const sum = await request(app.url)
      .post(`${PROXY}/everything/tools/get-sum/call`)
      .set(INTERNAL_CALLER)
      .send({ a: 2, b: 40 })
      .expect(200);
    expect(sum.body.content[0].text).toBe('The sum of 2 and 40 is 42.');
  });

  it('passes structuredContent through', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/clinic_tools/tools/create_prescription/call`)
      .set(INTERNAL_CALLER)
      .send({ patient_id: 'P0001', drug_id: 'DR01', dosage_instruction: '口服，每日2次', days_supply: 7 })
      .expect(200);
    expect(response.body.structuredContent).toMatchObject({ patient_id: 'P0001', status: 'pending_review' });
    expect(response.body.content[0].text).toMatch(/^处方 RX-/);
  });

  it('answers a tool-level failure as 200 with isError: true', async () => {
    // Valid for the schema (strings), refused by the tool itself (blank).
    const response = await request(app.url)
      .post(`${PROXY}/clinic_tools/tools/create_prescription/call`)
      .set(INTERNAL_CALLER)
      .send({ patient_id: ' ', drug_id: 'DR01', dosage_instruction: '口服' })
      .expect(200);
    expect(response.body.isError).toBe(true);
    expect(response.body.content[0].text).toContain('patient_id');
  });

  it("answers arguments the tool's inputSchema forbids with a 400 naming the field, on stdio servers too", async () => {
    const invalid = await request(app.url)
      .post(`${PROXY}/everything/tools/get-sum/call`)
      .set(INTERNAL_CALLER)
      .set('x-language', 'en-US')
      .send({ a: 'x', b: 1 })
      .expect(400);
    expect(invalid.body).toMatchObject({
      code: 'agentRetrieval.BadRequest.InvalidToolArguments',
      details: ['a must be number'],
    });
    const missing = await request(app.url)
      .post(`${PROXY}/clinic_tools/tools/create_prescription/call`)
      .set(INTERNAL_CALLER)
      .set('x-language', 'en-US')
      .send({ patient_id: 'P0001', drug_id: 'DR01', dosage_instruction: '口服', days_supply: 'seven' })
      .expect(400);
    expect(missing.body.details).toEqual(['days_supply must be integer']);
  });

  it('treats an empty body as no arguments', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/everything/tools/get-env/call`)
      .set(INTERNAL_CALLER)
      .expect(200);
    expect(response.body.content[0].type).toBe('text');
    expect(response.body.isError).not.toBe(true);
  });

  it.each([
    [
      'an array',
      '[]',
      'agentRetrieval.BadRequest.InvalidToolArguments',
      'request body must be a JSON object of tool arguments',
    ],
    [
      'a string',
      '"x"',
      'agentRetrieval.BadRequest.InvalidJson',
      'request body must be a JSON object or array, not a string',
    ],
    [
      'a number',
      '5',
      'agentRetrieval.BadRequest.InvalidJson',
      'request body must be a JSON object or array, not a number',
    ],
    ['broken JSON', '{"a":', 'agentRetrieval.BadRequest.InvalidJson', 'request body is not valid JSON'],
  ])('rejects %s as the body with a 400 error body', async (_what, body, code, details) => {
    const response = await request(app.url)
      .post(`${PROXY}/everything/tools/echo/call`)
      .set(INTERNAL_CALLER)
      .set('content-type', 'application/json')
      .set('x-language', 'en-US')
      .send(body)
      .expect(400);
    expect(response.body).toEqual({
      code,
      description: expect.any(String),
      solution: expect.any(String),
      link: expect.any(String),
      details,
    });
  });

  it('answers 404 for an unknown server or tool, with hostile names kept harmless', async () => {
    const server = await request(app.url)
      .post(`${PROXY}/nope/tools/echo/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(404);
    expect(server.body.code).toBe('agentRetrieval.NotFound.MCPServerNotFound');
    const tool = await request(app.url)
      .post(`${PROXY}/everything/tools/${encodeURIComponent("x'; DROP TABLE t;--")}/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(404);
    expect(tool.body.code).toBe('agentRetrieval.NotFound.MCPToolNotFound');
    await request(app.url).post(`${PROXY}/..%2F..%2Fetc/tools/echo/call`).set(INTERNAL_CALLER).send({}).expect(404);
  });

  it('answers 502 when the server cannot be started', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/unreachable/tools/echo/call`)
      .set(INTERNAL_CALLER)
      .send({})
      .expect(502);
    expect(response.body.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
  });

  it('answers 504 when the tool does not finish within MCP_CALL_TIMEOUT_MS', async () => {
    const response = await request(app.url)
      .post(`${PROXY}/everything/tools/trigger-long-running-operation/call`)
      .set(INTERNAL_CALLER)
      .send({ duration: 8, steps: 2 })
      .expect(504);
    expect(response.body.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
  });

  it('answers 502 after the server process is killed, then reconnects', async () => {
    const call = () =>
      request(app.url).post(`${PROXY}/clinic_tools/tools/echo/call`).set(INTERNAL_CALLER).send({ message: 'ping' });
    expect((await call()).status).toBe(200);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(pid, 'SIGKILL');
    await waitFor('the killed server to exit', async () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    const failed = await call();
    expect(failed.status).toBe(502);
    expect(failed.body.code).toBe('agentRetrieval.BadGateway.UpstreamUnreachable');
    const recovered = await waitFor('a reconnect', async () => {
      const response = await call();
      return response.status === 200 ? response : undefined;
    });
    expect(recovered.body).toEqual({ content: [{ type: 'text', text: 'ping' }] });
    expect(Number(readFileSync(pidFile, 'utf8'))).not.toBe(pid);
  });

  it('counts proxy calls by server, tool and outcome', async () => {
    const metrics = await request(app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /agent_retrieval_mcp_proxy_calls_total\{mcp_id="everything",tool="echo",outcome="ok"\} \d+/,
    );
    expect(metrics.text).toMatch(
      /agent_retrieval_mcp_proxy_calls_total\{mcp_id="clinic_tools",tool="create_prescription",outcome="tool_error"\} \d+/,
    );
    expect(metrics.text).toMatch(
      /agent_retrieval_mcp_proxy_calls_total\{mcp_id="_unknown_",tool="_unknown_",outcome="not_found"\} \d+/,
    );
    expect(metrics.text).toContain('agent_retrieval_mcp_proxy_call_duration_seconds_bucket');
    expect(metrics.text).toMatch(
      /agent_retrieval_operator_upstream_calls_total\{adapter="embedded",operation="mcp_call",outcome="ok"\} \d+/,
    );
  });

  it('shows the MCP servers in /health without affecting readiness', async () => {
    const health = await request(app.url).get('/health').expect(200);
    expect(health.body.details.operators).toMatchObject({
      status: 'up',
      adapter: 'embedded',
      mcp_servers: { everything: 'connected', clinic_tools: 'connected' },
    });
    await request(app.url).get('/health/ready').expect(200);
  });

  it('stops the stdio servers on shutdown', async () => {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(existsSync(pidFile)).toBe(true);
    await app.close();
    await waitFor('the server to stop', async () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });
  });
});
