/**
 * Human confirmation of actions and MCP tasks, end to end with the official SDK clients: a 2026-07-28
 * client (SDK 2.x) gets `input_required` and its retry decides; a 2025-era client (SDK 1.x) that declared
 * elicitation receives `elicitation/create` mid-call and its answer decides; a client with neither keeps the
 * `confirm` argument. Tasks: a call from a client that declared the tasks extension is polled to completion,
 * another is cancelled while its upstream (a WeKnora stand-in) still holds the answer.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  withInputRequired,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { appendFileSync, cpSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { z } from 'zod';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer } from './support/http-peer';
import { connectV1, errorBodyOf, MCP_PATH, ToolCallResult } from './support/mcp-clients';
import { CLINIC_TOOLS_SERVER, PROJECT_ROOT, ScratchDir, scratchDir } from './support/mcp-fixtures';
import { waitFor } from './support/until';

const ALICE = { Authorization: 'Bearer tok-alice', 'X-Kn-ID': 'clinic' };
const BOB = { Authorization: 'Bearer tok-bob', 'X-Kn-ID': 'clinic' };
const PRESCRIBE = {
  at_id: 'create_prescription',
  _instance_identity: { patient_id: 'P00276' },
  arguments: { drug_id: 'DR001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 },
};
const TASKS = 'io.modelcontextprotocol/tasks';
const WEKNORA_CONNECTION = { 'X-WeKnora-Api-Key': 'sk-e2e', 'X-WeKnora-KB-IDs': 'kb-a' };

interface InputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
  requestState: string;
}

interface TaskAnswer {
  resultType?: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  result?: ToolCallResult;
}

const ANY_RESULT = z.looseObject({});

/** A 2026-07-28 client (SDK 2.x) that declares form elicitation, in manual multi-round-trip mode. */
async function connectModern(url: string, headers: Record<string, string>): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'e2e-modern', version: '2.0.0' },
    {
      versionNegotiation: { mode: 'auto' },
      inputRequired: { autoFulfill: false },
      capabilities: { elicitation: { form: {} } },
    },
  );
  await client.connect(new TransportV2(new URL(`${url}${MCP_PATH}`), { requestInit: { headers } }));
  return client;
}

/** A 2025-era client (SDK 1.x) that declares elicitation and answers each question with `answer`. */
async function connectEliciting(url: string, headers: Record<string, string>, answer: () => Record<string, unknown>) {
  const asked: { message: string; requestedSchema: unknown }[] = [];
  const client = new Client({ name: 'e2e-eliciting', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (message) => {
    asked.push(message.params as { message: string; requestedSchema: unknown });
    return answer() as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}${MCP_PATH}`), { requestInit: { headers } }));
  return { client, asked };
}

function callParams(args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { method: 'tools/call' as const, params: { name: 'execute_action', arguments: args, ...extra } };
}

describe('human confirmation and tasks over MCP (e2e, SDK 1.x and 2.x clients)', () => {
  let app: TestApp;
  let scratch: ScratchDir;
  let weknora: HttpPeer;
  let releaseSearch: () => void = () => undefined;

  const metric = async (pattern: RegExp): Promise<number> => {
    const text = (await request(app.url).get('/metrics').expect(200)).text;
    return Number(pattern.exec(text)?.[1] ?? 0);
  };
  const declined = () => metric(/action_executions_total\{outcome="refused:declined"\} (\d+)/);
  const executedOk = () => metric(/action_executions_total\{outcome="ok"\} (\d+)/);

  beforeAll(async () => {
    scratch = scratchDir('mcp-confirmation');
    const knDir = path.join(scratch.dir, 'networks');
    cpSync(path.join(PROJECT_ROOT, 'examples', 'networks', 'clinic'), path.join(knDir, 'clinic'), { recursive: true });
    const tools = { command: process.execPath, args: [CLINIC_TOOLS_SERVER, '--profile', 'clinic'] };
    weknora = new HttpPeer(async (recorded, response) => {
      // Holds every search until the test releases it: the call is still running while it is cancelled.
      if (recorded.url === '/api/v1/knowledge-search') await new Promise<void>((resolve) => (releaseSearch = resolve));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: true, data: [] }));
    });
    app = await startTestApp({
      KN_DIR: knDir,
      MCP_SERVERS_FILE: scratch.file('mcp.json', JSON.stringify({ mcpServers: { clinic_tools: tools } })),
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-alice=alice:user, tok-bob=bob:user',
      KB_BACKEND: 'weknora',
      WEKNORA_BASE_URL: await weknora.start(),
      WEKNORA_TIMEOUT_MS: '60000',
      MCP_TASK_THRESHOLD_MS: '0',
    });
  });

  afterAll(async () => {
    releaseSearch();
    await app?.close();
    await weknora?.stop();
    scratch?.remove();
  });

  describe('2026-07-28 client (SDK 2.x): input_required', () => {
    let client: ClientV2;
    beforeAll(async () => (client = await connectModern(app.url, ALICE)));
    afterAll(() => client?.close());

    const ask = async (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      (await client.request(callParams(args, extra), withInputRequired(ANY_RESULT), {
        allowInputRequired: true,
      })) as unknown as InputRequired & ToolCallResult;

    it('asks the human what will run, in the caller’s language, even when the model sent confirm: true', async () => {
      const asked = await ask({ ...PRESCRIBE, confirm: true });
      expect(asked.resultType).toBe('input_required');
      const question = asked.inputRequests.approval;
      expect(question.method).toBe('elicitation/create');
      expect(question.params.message).toContain('create_prescription');
      expect(question.params.message).toContain('{"patient_id":"P00276"}');
      expect(question.params.message).toContain('"drug_id": "DR001"');
      // The network's fixed values are part of what the human approves.
      expect(question.params.message).toContain('"clinic_code": "HZ-CLINIC-001"');
      expect(question.params.message).toContain('Approve it?');
      expect(question.params.requestedSchema).toMatchObject({ required: ['approve'] });
      expect(asked.requestState).toMatch(/^[\w-]+\.[\w-]+$/);
    });

    it('runs the action when the retry approves it', async () => {
      const before = await executedOk();
      const asked = await ask(PRESCRIBE);
      const approved = await ask(PRESCRIBE, {
        requestState: asked.requestState,
        inputResponses: { approval: { action: 'accept', content: { approve: true } } },
      });
      expect(approved.isError).toBeUndefined();
      expect(approved.structuredContent).toMatchObject({ at_id: 'create_prescription', outcome: 'ok' });
      expect(await executedOk()).toBe(before + 1);
    });

    it('does not run it when the retry declines, and the audit counts the decline', async () => {
      const [declinedBefore, okBefore] = [await declined(), await executedOk()];
      const asked = await ask(PRESCRIBE);
      const refused = await ask(PRESCRIBE, {
        requestState: asked.requestState,
        inputResponses: { approval: { action: 'decline' } },
      });
      expect(errorBodyOf(refused).code).toBe('agentRetrieval.Forbidden.ActionDeclined');
      expect(await declined()).toBe(declinedBefore + 1);
      expect(await executedOk()).toBe(okBefore);
    });

    it('asks again instead of running for a tampered, reused or other-call requestState', async () => {
      const asked = await ask(PRESCRIBE);
      const yes = { approval: { action: 'accept', content: { approve: true } } };
      const [body, mac] = asked.requestState.split('.');
      const tampered = `${Buffer.from(Buffer.from(body, 'base64url').toString().replace('"n"', '"x"')).toString('base64url')}.${mac}`;
      expect((await ask(PRESCRIBE, { requestState: tampered, inputResponses: yes })).resultType).toBe('input_required');
      const otherArguments = { ...PRESCRIBE, arguments: { ...PRESCRIBE.arguments, days_supply: 30 } };
      expect((await ask(otherArguments, { requestState: asked.requestState, inputResponses: yes })).resultType).toBe(
        'input_required',
      );
      expect((await ask(PRESCRIBE, { requestState: asked.requestState, inputResponses: yes })).isError).toBeUndefined();
      // One approval runs one execution.
      expect((await ask(PRESCRIBE, { requestState: asked.requestState, inputResponses: yes })).resultType).toBe(
        'input_required',
      );
    });

    it('does not accept another account’s approval state', async () => {
      const asked = await ask(PRESCRIBE);
      const bob = await connectModern(app.url, BOB);
      try {
        const stolen = (await bob.request(
          callParams(PRESCRIBE, {
            requestState: asked.requestState,
            inputResponses: { approval: { action: 'accept', content: { approve: true } } },
          }),
          withInputRequired(ANY_RESULT),
          { allowInputRequired: true },
        )) as unknown as InputRequired;
        expect(stolen.resultType).toBe('input_required');
      } finally {
        await bob.close();
      }
    });

    it('lets the SDK’s automatic mode ask its own elicitation handler and retry inside callTool', async () => {
      const auto = new ClientV2(
        { name: 'e2e-modern-auto', version: '2.0.0' },
        { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
      );
      const questions: string[] = [];
      auto.setRequestHandler('elicitation/create', (message) => {
        questions.push((message.params as { message: string }).message);
        return { action: 'accept', content: { approve: true } };
      });
      await auto.connect(new TransportV2(new URL(`${app.url}${MCP_PATH}`), { requestInit: { headers: ALICE } }));
      try {
        const result = (await auto.callTool({ name: 'execute_action', arguments: PRESCRIBE })) as ToolCallResult;
        expect(questions).toHaveLength(1);
        expect(result.structuredContent).toMatchObject({ outcome: 'ok' });
      } finally {
        await auto.close();
      }
    });

    it('asks in Chinese when the caller prefers zh-Hans', async () => {
      const chinese = await connectModern(app.url, { ...ALICE, 'Accept-Language': 'zh-CN,zh;q=0.9' });
      try {
        const asked = (await chinese.request(callParams(PRESCRIBE), withInputRequired(ANY_RESULT), {
          allowInputRequired: true,
        })) as unknown as InputRequired;
        expect(asked.inputRequests.approval.params.message).toContain('是否批准');
        expect(asked.inputRequests.approval.params.message).toContain('开具处方');
      } finally {
        await chinese.close();
      }
    });
  });

  describe('2025-era client (SDK 1.x) that declared elicitation', () => {
    it('receives elicitation/create during the call and an approval runs the action', async () => {
      const { client, asked } = await connectEliciting(app.url, ALICE, () => ({
        action: 'accept',
        content: { approve: true },
      }));
      try {
        const result = (await client.callTool({ name: 'execute_action', arguments: PRESCRIBE })) as ToolCallResult;
        expect(asked).toHaveLength(1);
        expect(asked[0].message).toContain('create_prescription');
        expect(result.isError).toBeUndefined();
        expect(result.structuredContent).toMatchObject({ outcome: 'ok' });
      } finally {
        await client.close();
      }
    });

    it('does not run the action when the human declines, even with confirm: true from the model', async () => {
      const before = await declined();
      const { client, asked } = await connectEliciting(app.url, ALICE, () => ({ action: 'decline' }));
      try {
        const result = (await client.callTool({
          name: 'execute_action',
          arguments: { ...PRESCRIBE, confirm: true },
        })) as ToolCallResult;
        expect(asked).toHaveLength(1);
        expect(errorBodyOf(result).code).toBe('agentRetrieval.Forbidden.ActionDeclined');
        expect(await declined()).toBe(before + 1);
      } finally {
        await client.close();
      }
    });
  });

  describe('a client with neither channel keeps the confirm argument', () => {
    it('refuses without confirm and runs with confirm: true', async () => {
      const client = await connectV1(app.url, ALICE);
      try {
        const refused = (await client.callTool({ name: 'execute_action', arguments: PRESCRIBE })) as ToolCallResult;
        expect(errorBodyOf(refused).code).toBe('agentRetrieval.Forbidden.ActionApprovalRequired');
        const ran = (await client.callTool({
          name: 'execute_action',
          arguments: { ...PRESCRIBE, confirm: true },
        })) as ToolCallResult;
        expect(ran.structuredContent).toMatchObject({ outcome: 'ok' });
      } finally {
        await client.close();
      }
    });
  });

  describe('tasks a 2025-11-25 client (SDK 1.x) asks for with params.task', () => {
    let client: Client;
    beforeAll(async () => (client = await connectV1(app.url, { ...ALICE, ...WEKNORA_CONNECTION })));
    afterAll(() => client?.close());

    const stream = (name: string, args: Record<string, unknown>) =>
      client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
        task: { ttl: 60_000 },
      });

    it('polls a task to its result', async () => {
      const seen: string[] = [];
      let result: ToolCallResult | undefined;
      for await (const message of stream('kn_search', { query: '糖尿病治疗方案' })) {
        seen.push(message.type);
        if (message.type === 'result') result = message.result as ToolCallResult;
        if (message.type === 'error') throw message.error;
      }
      expect(seen[0]).toBe('taskCreated');
      expect(seen.at(-1)).toBe('result');
      expect(JSON.stringify(result?.structuredContent)).toContain('object_types');
      expect(result?._meta?.['io.modelcontextprotocol/related-task']).toMatchObject({ taskId: expect.any(String) });
    });

    it('cancels a running task, which then ends as cancelled', async () => {
      const outcome: string[] = [];
      for await (const message of stream('weknora_search', { query: 'leave policy' })) {
        if (message.type === 'taskCreated') {
          outcome.push('created');
          const cancelled = await client.experimental.tasks.cancelTask(message.task.taskId);
          outcome.push(cancelled.status);
          releaseSearch();
        }
        if (message.type === 'error') outcome.push(String(message.error.message));
        if (message.type === 'result') outcome.push('result');
      }
      expect(outcome[0]).toBe('created');
      expect(outcome[1]).toBe('cancelled');
      expect(outcome.at(-1)).toMatch(/was cancelled/);
      const listed = await client.experimental.tasks.listTasks();
      expect(listed.tasks.map((task) => task.status)).toContain('cancelled');
    });
  });

  describe('tasks (io.modelcontextprotocol/tasks), over plain JSON-RPC (SDK 2.4 has no tasks runtime)', () => {
    let nextId = 1;
    /** One 2026-07-28 request declaring the tasks extension, as the extension's spec shows it on the wire. */
    const rpc = async (method: string, params: Record<string, unknown>, caller: Record<string, string> = ALICE) => {
      const headers = { ...caller, ...WEKNORA_CONNECTION };
      const name = method === 'tools/call' ? String(params.name) : String(params.taskId);
      const meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        // Elicitation too: a client that can ask its user still gets tasks for every other tool.
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, extensions: { [TASKS]: {} } },
      };
      const response = await request(app.url)
        .post(MCP_PATH)
        .set({ ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28' })
        .set({ 'mcp-method': method, 'mcp-name': name })
        .send({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } });
      return response.body as { result?: TaskAnswer; error?: { code: number; message: string } };
    };
    const get = async (taskId: string) => (await rpc('tasks/get', { taskId })).result!;
    const settled = (taskId: string): Promise<TaskAnswer> =>
      waitFor(`task ${taskId} leaves "working"`, async () => {
        const task = await get(taskId);
        return task.status === 'working' ? undefined : task;
      });

    it('answers a long call with a task that is polled to its result', async () => {
      const created = (await rpc('tools/call', { name: 'kn_search', arguments: { query: '糖尿病治疗方案' } })).result!;
      expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3600000 });
      expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
      const done = await settled(created.taskId);
      expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
      expect(done.result?.isError).toBeUndefined();
      expect(JSON.stringify(done.result?.structuredContent)).toContain('object_types');
    });

    it('cancels a running task; another account cannot see or cancel it', async () => {
      const created = (await rpc('tools/call', { name: 'weknora_search', arguments: { query: 'leave policy' } }))
        .result!;
      expect(created.status).toBe('working');
      const notFound = { code: -32602, message: 'Failed to retrieve task: Task not found' };
      expect((await rpc('tasks/get', { taskId: created.taskId }, BOB)).error).toMatchObject(notFound);
      expect((await rpc('tasks/cancel', { taskId: created.taskId }, BOB)).error).toMatchObject(notFound);
      expect((await get(created.taskId)).status).toBe('working');
      expect((await rpc('tasks/cancel', { taskId: created.taskId })).result).toMatchObject({ resultType: 'complete' });
      expect((await get(created.taskId)).status).toBe('cancelled');
      releaseSearch();
      expect(await settled(created.taskId)).toMatchObject({
        status: 'cancelled',
        statusMessage: 'Cancelled by the client',
      });
      expect((await get(created.taskId)).result).toBeUndefined();
    });

    it('runs a network reload as a task at once: polled to its result, and cancelled', async () => {
      const reload = { name: 'reload_network', arguments: { kn_id: 'clinic' } };
      const created = (await rpc('tools/call', reload)).result!;
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const done = await settled(created.taskId);
      expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
      expect(done.result?.structuredContent).toMatchObject({ kn_id: 'clinic', state: 'ready' });

      // A changed folder makes the next reload a real build, still running when the client cancels it.
      const patients = path.join(scratch.dir, 'networks', 'clinic', 'data', 'patient.csv');
      appendFileSync(
        patients,
        readFileSync(patients, 'utf8')
          .split('\n')[1]
          .replace(/^[^,]+/, 'P90001') + '\n',
      );
      const second = (await rpc('tools/call', reload)).result!;
      expect((await rpc('tasks/cancel', { taskId: second.taskId })).result).toMatchObject({ resultType: 'complete' });
      expect(await settled(second.taskId)).toMatchObject({ status: 'cancelled' });
    });
  });
});
