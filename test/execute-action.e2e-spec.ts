/**
 * execute_action end to end on copies of the demo networks: the official MCP SDK client over /mcp and
 * supertest on both REST prefixes; the clinic prescription reaches the real stdio clinic-tools server,
 * the booking action the real clinic-booking HTTP service (through the toolbox executor), and the k8s
 * restart its trigger condition. Refusals are checked by code and by the words they name.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ChildProcess, spawn } from 'node:child_process';
import OpenAI from 'openai';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';
import { connectV1, errorBodyOf, ToolCallResult } from './support/mcp-clients';
import { CLINIC_TOOLS_SERVER, PROJECT_ROOT, ScratchDir, scratchDir } from './support/mcp-fixtures';

const PUBLIC = '/api/agent-retrieval/v1/kn/execute_action';
const PRIVATE = '/api/agent-retrieval/in/v1/kn/execute_action';
const DIAGNOSED = 'P00276';
/** A patient whose diagnosis this test's copy of the clinic removes. */
const UNDIAGNOSED = 'P00600';
const PRESCRIPTION = { drug_id: 'DR001', dosage_instruction: '口服，每次0.5g，每日2次', days_supply: 7 };

interface Execution {
  at_id: string;
  kn_id: string;
  action: { name: string; action_type?: string; risk_level?: string; source: Record<string, unknown> };
  _instance_identity: Record<string, unknown>;
  arguments: Record<string, Record<string, unknown>> & Record<string, unknown>;
  fixed_arguments: { applied: string[]; overridden: string[] };
  outcome: string;
  result: Record<string, unknown> & { structuredContent?: Record<string, unknown> };
}

/** Starts the demo booking service on a free port; resolves with its URL once it says it listens. */
function startBookingService(): Promise<{ process: ChildProcess; url: string }> {
  const server = path.join(PROJECT_ROOT, 'examples', 'toolbox-services', 'clinic-booking', 'server.js');
  const child = spawn(process.execPath, [server], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      const url = /listening on (http:\/\/\S+)/.exec(chunk.toString())?.[1];
      if (url) resolve({ process: child, url });
    });
  });
}

/** The demo networks copied into the scratch dir, with this test's changes (see the comments inside). */
function prepareNetworks(scratch: ScratchDir, bookingUrl: string): string {
  const knDir = path.join(scratch.dir, 'networks');
  for (const network of ['clinic', 'k8s_ops']) {
    cpSync(path.join(PROJECT_ROOT, 'examples', 'networks', network), path.join(knDir, network), { recursive: true });
  }
  const clinic = path.join(knDir, 'clinic');
  const toolbox = path.join(clinic, 'toolboxes', 'clinic_toolbox.yaml');
  writeFileSync(toolbox, readFileSync(toolbox, 'utf8').replace('http://127.0.0.1:30880', bookingUrl));
  // Every demo patient has a diagnosis: one loses it here, so the prescription pre-condition fails naturally.
  const patients = path.join(clinic, 'data', 'patient.csv');
  const rows = readFileSync(patients, 'utf8').split('\n');
  const at = rows.findIndex((row) => row.startsWith(`${UNDIAGNOSED},`));
  rows[at] = rows[at].replace(/,DX\d+,/, ',,');
  writeFileSync(patients, rows.join('\n'));
  writeFileSync(
    path.join(clinic, 'action_types', 'archive_patient.bkn'),
    '---\ntype: action_type\nid: archive_patient\nname: 归档患者\nenabled: false\n---\n\n## ActionType: 归档患者\n\n' +
      '### Bound Object\n\n| Bound Object | Action Type |\n|---|---|\n| patient | delete |\n\n' +
      '### Tool Configuration\n\n| Type | MCP ID | Tool Name |\n|---|---|---|\n| mcp | clinic_tools | echo |\n',
  );
  return knDir;
}

function mcpServers(): string {
  const server = (profile: string) => ({
    command: process.execPath,
    args: [CLINIC_TOOLS_SERVER, '--profile', profile],
  });
  return JSON.stringify({ mcpServers: { clinic_tools: server('clinic'), k8s_tools: server('k8s') } });
}

describe('execute_action (e2e: demo networks, real MCP server and toolbox service)', () => {
  let app: TestApp;
  let scratch: ScratchDir;
  let booking: { process: ChildProcess; url: string };
  let clinic: Client;
  const model = new LlmStandin();

  const execute = async (args: Record<string, unknown>): Promise<ToolCallResult> =>
    (await clinic.callTool({ name: 'execute_action', arguments: args })) as ToolCallResult;
  const executed = async (args: Record<string, unknown>): Promise<Execution> => {
    const result = await execute(args);
    if (result.isError) throw new Error(`execute_action failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Execution;
  };

  beforeAll(async () => {
    scratch = scratchDir('execute-action');
    booking = await startBookingService();
    app = await startTestApp({
      KN_DIR: prepareNetworks(scratch, booking.url),
      MCP_SERVERS_FILE: scratch.file('mcp.json', mcpServers()),
      LLM_BASE_URL: await model.start(),
    });
    clinic = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
  });

  afterAll(async () => {
    await clinic?.close();
    await app?.close();
    booking?.process.kill();
    await model.stop();
    scratch?.remove();
  });

  it('is listed right after get_action_info, annotated destructive and open-world', async () => {
    const { tools } = await clinic.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names[names.indexOf('get_action_info') + 1]).toBe('execute_action');
    const tool = tools.find((candidate) => candidate.name === 'execute_action')!;
    expect(tool.annotations).toMatchObject({
      title: 'Execute an action',
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(tool.inputSchema.required?.sort()).toEqual(['_instance_identity', 'at_id']);
  });

  it('runs the clinic prescription on the stdio MCP server with the fixed values over the caller’s', async () => {
    const body = await executed({
      at_id: 'create_prescription',
      _instance_identity: { patient_id: DIAGNOSED },
      arguments: { ...PRESCRIPTION, clinic_code: 'ELSEWHERE-9', patient_id: 'P00001' },
      confirm: true,
    });
    // The server echoes what it received: the network's patient and clinic code, the caller's drug.
    expect(body.result.structuredContent).toMatchObject({
      patient_id: DIAGNOSED,
      clinic_code: 'HZ-CLINIC-001',
      status: 'pending_review',
      items: [{ drug_id: 'DR001', dosage_instruction: PRESCRIPTION.dosage_instruction, days_supply: 7 }],
    });
    expect(body.result.isError).toBeUndefined();
    expect(body).toMatchObject({
      at_id: 'create_prescription',
      kn_id: 'clinic',
      action: {
        name: '开具处方',
        action_type: 'add',
        risk_level: 'medium',
        source: { type: 'mcp', mcp_id: 'clinic_tools', tool_name: 'create_prescription' },
      },
      _instance_identity: { patient_id: DIAGNOSED },
      outcome: 'ok',
    });
    expect(body.fixed_arguments.overridden.sort()).toEqual(['clinic_code', 'patient_id']);
    expect(body.fixed_arguments.applied.sort()).toEqual([
      'allergy_history',
      'clinic_code',
      'patient_id',
      'patient_name',
    ]);
    expect(body.arguments).toMatchObject({ ...PRESCRIPTION, patient_id: DIAGNOSED, clinic_code: 'HZ-CLINIC-001' });
  });

  it('refuses an approval-required action without confirm, saying how to proceed, and counts the refusal', async () => {
    const args = {
      at_id: 'create_prescription',
      _instance_identity: { patient_id: DIAGNOSED },
      arguments: PRESCRIPTION,
    };
    const refused = errorBodyOf(await execute(args));
    expect(refused.code).toBe('agentRetrieval.Forbidden.ActionApprovalRequired');
    expect(refused.details).toBe(
      'action create_prescription requires approval: repeat the call with confirm: true after the user approved it',
    );
    expect((await executed({ ...args, confirm: true })).outcome).toBe('ok');
    const metrics = await request(app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(
      /agent_retrieval_action_executions_total\{outcome="refused:approval_required"\} [1-9]/,
    );
    expect(metrics.text).toMatch(/agent_retrieval_action_executions_total\{outcome="ok"\} [1-9]/);
    expect(metrics.text).toMatch(
      /agent_retrieval_mcp_proxy_calls_total\{mcp_id="clinic_tools",tool="create_prescription",outcome="ok"\}/,
    );
  });

  it('refuses a prescription for a patient without a diagnosis, naming the pre-condition and its message', async () => {
    const response = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .set('X-Kn-ID', 'clinic')
      .send({
        at_id: 'create_prescription',
        _instance_identity: { patient_id: UNDIAGNOSED },
        arguments: PRESCRIPTION,
        confirm: true,
      })
      .expect(409);
    expect(response.body.code).toBe('agentRetrieval.Conflict.ActionPreconditionFailed');
    expect(response.body.details).toBe(
      'action create_prescription: pre-condition not met: patient.relation:patient_diagnosed_with exist: 患者须有明确诊断后才能开具处方',
    );
  });

  it('honours the k8s restart trigger condition: refused for an Available deployment, run for an Unavailable one', async () => {
    const k8s = await connectV1(app.url, { 'X-Kn-ID': 'k8s_ops' });
    try {
      const run = (deployment: string) =>
        k8s.callTool({
          name: 'execute_action',
          arguments: {
            at_id: 'restart_deployment',
            _instance_identity: { deployment_id: deployment },
            arguments: { reason: 'crash loop' },
            confirm: true,
          },
        }) as Promise<ToolCallResult>;
      const refused = errorBodyOf(await run('payments/payment-api'));
      expect(refused.code).toBe('agentRetrieval.Conflict.ActionTriggerConditionNotMet');
      expect(refused.details).toBe(
        'action restart_deployment: trigger condition not met: deployment.status in ["Degraded","Unavailable"] (found "Available")',
      );
      const ran = (await run('payments/refund-worker')).structuredContent as Execution;
      expect(ran.result.structuredContent).toMatchObject({
        namespace: 'payments',
        deployment: 'refund-worker',
        reason: 'crash loop',
        max_unavailable: '25%',
        status: 'rollout_started',
      });
    } finally {
      await k8s.close();
    }
  });

  it('lists each schema violation by field: isError over MCP, 400 over REST', async () => {
    const identity = { patient_id: DIAGNOSED };
    const viaMcp = errorBodyOf(
      await execute({
        at_id: 'create_prescription',
        _instance_identity: identity,
        arguments: { ...PRESCRIPTION, days_supply: 'abc' },
        confirm: true,
      }),
    );
    expect(viaMcp).toMatchObject({
      code: 'agentRetrieval.BadRequest.InvalidActionArguments',
      details: ['days_supply must be integer'],
    });
    const viaRest = await request(app.url)
      .post(PUBLIC)
      .set('X-Kn-ID', 'clinic')
      .send({
        at_id: 'create_prescription',
        _instance_identity: identity,
        arguments: { days_supply: 500, prescriber: {} },
        confirm: true,
      })
      .expect(400);
    expect(viaRest.body.code).toBe('agentRetrieval.BadRequest.InvalidActionArguments');
    expect(viaRest.body.details).toEqual(
      expect.arrayContaining([
        'drug_id is required',
        'dosage_instruction is required',
        'days_supply must be <= 90',
        'prescriber.doctor_id is required',
      ]),
    );
  });

  it('answers the same execution on the public and the private REST prefix', async () => {
    const body = {
      at_id: 'create_prescription',
      _instance_identity: { patient_id: DIAGNOSED },
      arguments: PRESCRIPTION,
      confirm: true,
    };
    for (const route of [PUBLIC, PRIVATE]) {
      const response = await request(app.url)
        .post(route)
        .set(INTERNAL_CALLER)
        .set('X-Kn-ID', 'clinic')
        .send(body)
        .expect(200);
      expect(response.body).toMatchObject({
        kn_id: 'clinic',
        outcome: 'ok',
        result: { structuredContent: { patient_id: DIAGNOSED } },
      });
    }
  });

  it('books an appointment through the toolbox executor: flat arguments placed, fixed ones win per location', async () => {
    const response = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .send({
        kn_id: 'clinic',
        at_id: 'book_appointment',
        _instance_identity: { patient_id: DIAGNOSED },
        arguments: { dept_id: 'D01', appointment_date: '2025-07-01', channel: 'front_desk', 'X-Request-Source': 'e2e' },
      })
      .expect(200);
    const body = response.body as Execution;
    expect(body.result).toMatchObject({
      status_code: 201,
      body: {
        dept_id: 'D01',
        patient_id: DIAGNOSED,
        appointment_date: '2025-07-01',
        channel: 'ai_agent',
        request_source: 'e2e',
        status: 'booked',
      },
    });
    expect((body.result.body as Record<string, unknown>).sms_to).toMatch(/^1\d{2}\*{4}\d{4}$/);
    expect(body.arguments).toMatchObject({
      header: { 'X-Request-Source': 'e2e' },
      path: { dept_id: 'D01' },
      query: { channel: 'ai_agent' },
      body: { patient_id: DIAGNOSED, appointment_date: '2025-07-01' },
    });
    expect(body.fixed_arguments).toEqual({
      applied: ['query.channel', 'body.patient_id', 'body.phone'],
      overridden: ['query.channel'],
    });
    expect(body.action).toMatchObject({
      risk_level: 'low',
      source: { type: 'tool', box_id: 'clinic_toolbox', tool_id: 'bookAppointment' },
    });
  });

  it('takes layered arguments as get_action_info describes them, and reports a tool’s own failure as tool_error', async () => {
    const call = (args: Record<string, unknown>) =>
      executed({ at_id: 'book_appointment', _instance_identity: { patient_id: DIAGNOSED }, arguments: args });
    const layered = await call({ path: { dept_id: 'D02' }, body: { appointment_date: '2025-08-01' } });
    expect(layered.result).toMatchObject({
      status_code: 201,
      body: { dept_id: 'D02', appointment_date: '2025-08-01' },
    });
    expect(layered.outcome).toBe('ok');
    // The schema accepts an empty date; the booking service answers 422: the tool's error, not a refusal.
    const rejected = await call({ path: { dept_id: 'D02' }, body: { appointment_date: '' } });
    expect(rejected).toMatchObject({ outcome: 'tool_error', result: { status_code: 422 } });
    const blank = await executed({
      at_id: 'create_prescription',
      _instance_identity: { patient_id: DIAGNOSED },
      arguments: { ...PRESCRIPTION, dosage_instruction: ' ' },
      confirm: true,
    });
    expect(blank).toMatchObject({ outcome: 'tool_error', result: { isError: true } });
    const missing = errorBodyOf(
      await execute({ at_id: 'book_appointment', _instance_identity: { patient_id: DIAGNOSED }, arguments: {} }),
    );
    expect(missing).toMatchObject({
      code: 'agentRetrieval.BadRequest.InvalidActionArguments',
      details: ['path.dept_id is required', 'body.appointment_date is required'],
    });
  });

  it('chat does not run it unasked: the call goes back to the client for confirmation', async () => {
    const executions = async (): Promise<number> => {
      const { text } = await request(app.url).get('/metrics').expect(200);
      return [...text.matchAll(/^agent_retrieval_action_executions_total\{[^}]*\} (\d+)/gm)].reduce(
        (sum, [, n]) => sum + Number(n),
        0,
      );
    };
    const before = await executions();
    const args = {
      at_id: 'create_prescription',
      _instance_identity: { patient_id: DIAGNOSED },
      arguments: PRESCRIPTION,
    };
    model.use(() => ({ tool_calls: [{ name: 'execute_action', arguments: { ...args, confirm: true } }] }));
    const openai = new OpenAI({ apiKey: 'none', baseURL: `${app.url}/v1`, maxRetries: 0 });
    const answer = (await openai.chat.completions.create({
      model: 'standin-model',
      messages: [{ role: 'user', content: '给 P00276 开二甲双胍' }],
      kn_id: 'clinic',
    } as never)) as unknown as OpenAI.Chat.Completions.ChatCompletion & { tool_execution: Record<string, unknown> };
    expect(answer.choices[0].finish_reason).toBe('tool_calls');
    expect(answer.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'execute_action' } });
    expect(answer.tool_execution).toMatchObject({ executed: false });
    expect(await executions()).toBe(before);
  });

  it('refuses a disabled action, an unknown instance and an unknown action type', async () => {
    const disabled = errorBodyOf(
      await execute({ at_id: 'archive_patient', _instance_identity: { patient_id: DIAGNOSED }, confirm: true }),
    );
    expect(disabled).toMatchObject({
      code: 'agentRetrieval.Forbidden.ActionDisabled',
      details: 'action archive_patient is disabled (enabled: false)',
    });
    const nobody = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', at_id: 'create_prescription', _instance_identity: { patient_id: 'P99999' } })
      .expect(404);
    expect(nobody.body.code).toBe('agentRetrieval.NotFound.ActionInstanceNotFound');
    const unknown = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', at_id: 'launch_rocket', _instance_identity: { patient_id: DIAGNOSED } })
      .expect(404);
    expect(unknown.body.code).toBe('agentRetrieval.NotFound.ActionTypeNotFound');
    const noIdentity = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', at_id: 'create_prescription' })
      .expect(400);
    expect(noIdentity.body.code).toBe('agentRetrieval.BadRequest.ValidationRequired');
  });
});
