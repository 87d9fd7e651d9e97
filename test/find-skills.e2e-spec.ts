/**
 * find_skills (issue 15) on the demo networks, REST on both prefixes and MCP through the SDK client:
 * skills bound to instances through relations come first, skills bound to the object type follow,
 * an empty answer says why in the caller's language, and a network without the skills object type
 * is a 404 with the documented details.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { answeringKnId, connectV1, errorBodyOf, textOf, ToolCallResult } from './support/mcp-clients';

const PUBLIC = '/api/agent-retrieval/v1/kn/find_skills';
const PRIVATE = '/api/agent-retrieval/in/v1/kn/find_skills';
/** P00002's primary diagnosis is DX001 (2型糖尿病) in examples/networks/clinic/data/patient.csv. */
const DIABETIC = { patient_id: 'P00002' };
/** CrashLoopBackOff on worker-04, a NotReady node (examples/networks/k8s_ops/data/pod.csv, node.csv). */
const CRASHLOOP_POD = { pod_id: 'data-pipeline/warehouse-loader-6fkgjd4mhx-4rdpb' };
/** Running on worker-08, a Ready node: no skill is bound to it. */
const HEALTHY_POD = { pod_id: 'payments/payment-api-2cfbxff867-zfjrk' };

interface Skill {
  skill_id: string;
  name: string;
  description?: string;
}
type Answer = { entries: Skill[]; message?: string };

const names = (answer: Answer): string[] => answer.entries.map((skill) => skill.name);
const skillIds = (answer: Answer): string[] => answer.entries.map((skill) => skill.skill_id);

describe('find_skills (e2e)', () => {
  let app: TestApp;
  let client: Client;

  const find = async (body: Record<string, unknown>, headers: Record<string, string> = {}, status = 200) =>
    (await request(app.url).post(PUBLIC).set(headers).send(body).expect(status)).body as Answer & { code?: string };

  const callTool = async (args: Record<string, unknown>): Promise<ToolCallResult> =>
    (await client.callTool({ name: 'find_skills', arguments: args })) as ToolCallResult;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
  });

  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  it('a diabetic patient gets 糖尿病随访 first (patient → diagnosis → skills), then the patient skills', async () => {
    const answer = await find({ kn_id: 'clinic', object_type_id: 'patient', instance_identities: [DIABETIC] });
    expect(answer.entries[0]).toEqual({
      skill_id: 'SK001',
      name: '糖尿病随访',
      description: expect.stringContaining('糖化血红蛋白'),
    });
    // Object-type skills (object_type_id names patient) follow, by skill_id.
    expect(names(answer)).toEqual(['糖尿病随访', '患者建档', '初诊问诊']);
    expect(answer.message).toBeUndefined();
  });

  it('answers the same on the private prefix, with kn_id from X-Kn-ID', async () => {
    const body = { object_type_id: 'patient', instance_identities: [DIABETIC] };
    const viaPublic = await find({ ...body, kn_id: 'clinic' });
    const viaPrivate = await request(app.url)
      .post(PRIVATE)
      .set(INTERNAL_CALLER)
      .set('X-Kn-ID', 'clinic')
      .send(body)
      .expect(200);
    expect(viaPrivate.body).toEqual(viaPublic);
  });

  it('object-type mode: prescription gets 处方审核 first, then 用药咨询 (listed in a comma list)', async () => {
    const answer = await find({ kn_id: 'clinic', object_type_id: 'prescription' });
    expect(names(answer)).toEqual(['处方审核', '用药咨询']);
  });

  it('k8s_ops: a CrashLoopBackOff pod on a NotReady node gets crashloop_triage first, then the node runbook', async () => {
    const answer = await find({ kn_id: 'k8s_ops', object_type_id: 'pod', instance_identities: [CRASHLOOP_POD] });
    expect(skillIds(answer)).toEqual(['crashloop_triage', 'node_not_ready_recovery']);
    expect(answer.entries[0].name).toBe('CrashLoopBackOff triage');
  });

  it('skill_query keeps only the skills whose name or description share its words', async () => {
    const body = { kn_id: 'clinic', object_type_id: 'patient', instance_identities: [DIABETIC] };
    expect(names(await find({ ...body, skill_query: '问诊' }))).toEqual(['初诊问诊']);
    const k8s = { kn_id: 'k8s_ops', object_type_id: 'pod', instance_identities: [CRASHLOOP_POD] };
    expect(skillIds(await find({ ...k8s, skill_query: 'kubelet' }))).toEqual(['node_not_ready_recovery']);
  });

  it('takes up to MAX_INSTANCE_IDENTITIES identities (1000) and refuses more, naming the field', async () => {
    const patients = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ patient_id: `P${String(i + 1).padStart(5, '0')}` }));
    const many = await find({ kn_id: 'clinic', object_type_id: 'patient', instance_identities: patients(600) });
    // Among the 600 demo patients are diabetic, hypertensive and asthmatic ones: every diagnosis-bound skill.
    expect(skillIds(many).slice(0, 4).sort()).toEqual(['SK001', 'SK002', 'SK003', 'SK004']);
    const tooMany = await find(
      { kn_id: 'clinic', object_type_id: 'patient', instance_identities: patients(1001) },
      { 'X-Language': 'en-US' },
      400,
    );
    expect(tooMany.code).toBe('agentRetrieval.BadRequest.LimitExceeded');
    expect(JSON.stringify(tooMany)).toContain('instance_identities');
  });

  it('top_k cuts the ranked list', async () => {
    const answer = await find({
      kn_id: 'clinic',
      object_type_id: 'patient',
      instance_identities: [DIABETIC],
      top_k: 1,
    });
    expect(names(answer)).toEqual(['糖尿病随访']);
  });

  it('an empty answer carries the find_skills message in English by default and in Chinese when asked', async () => {
    const doctor = { kn_id: 'clinic', object_type_id: 'doctor' };
    expect(await find(doctor, { 'X-Language': 'zh-CN' })).toEqual({ entries: [], message: '该对象类没有绑定任何技能' });
    expect(await find(doctor)).toEqual({
      entries: [],
      message: 'No skill is bound to this object type',
    });
    const healthy = { kn_id: 'k8s_ops', object_type_id: 'pod', instance_identities: [HEALTHY_POD] };
    expect((await find(healthy, { 'Accept-Language': 'en-US,en;q=0.9' })).message).toBe(
      'No skill was found for these instances; drop instance_identities to recall by object_type_id only',
    );
    const filtered = { kn_id: 'clinic', object_type_id: 'prescription', skill_query: '心电图' };
    expect((await find(filtered, { 'X-Language': 'zh-CN' })).message).toBe(
      '没有技能匹配该 skill_query，请放宽或去掉 skill_query 后重试',
    );
  });

  it.each([0, 21])('top_k %d is a 400 naming top_k', async (topK) => {
    const body = await find(
      { kn_id: 'clinic', object_type_id: 'patient', top_k: topK },
      { 'X-Language': 'en-US' },
      400,
    );
    expect(body.code).toBe('agentRetrieval.BadRequest.ValidationRange');
    expect(JSON.stringify(body)).toContain('top_k');
  });

  it('an unknown object_type_id is a 404; a missing object_type_id is a 400', async () => {
    const unknown = await find({ kn_id: 'clinic', object_type_id: 'no_such_type' }, {}, 404);
    expect(unknown.code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
    const missing = await find({ kn_id: 'clinic' }, {}, 400);
    expect(JSON.stringify(missing)).toContain('object_type_id');
  });

  it('MCP: the tool answers what REST answers, ranked the same, with TOON text by default', async () => {
    const args = { object_type_id: 'patient', instance_identities: [DIABETIC] };
    const result = await callTool(args);
    expect(result.isError).toBeFalsy();
    expect(answeringKnId(result)).toBe('clinic');
    expect(result.structuredContent).toEqual(await find({ ...args, kn_id: 'clinic' }));
    expect(textOf(result)).toContain('糖尿病随访');
    const k8s = await callTool({ kn_id: 'k8s_ops', object_type_id: 'pod', instance_identities: [CRASHLOOP_POD] });
    expect(skillIds(k8s.structuredContent as Answer)[0]).toBe('crashloop_triage');
  });

  it('MCP: the empty-answer message follows the connection language; bad arguments are isError', async () => {
    const english = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-Language': 'en-US' });
    try {
      const result = (await english.callTool({
        name: 'find_skills',
        arguments: { object_type_id: 'doctor' },
      })) as ToolCallResult;
      expect(result.structuredContent).toEqual({ entries: [], message: 'No skill is bound to this object type' });
    } finally {
      await english.close();
    }
    const tooMany = errorBodyOf(await callTool({ object_type_id: 'patient', top_k: 21 }));
    expect(tooMany.code).toBe('agentRetrieval.BadRequest.ValidationRange');
    expect(String(tooMany.details)).toContain('top_k');
    const unknown = errorBodyOf(await callTool({ object_type_id: 'no_such_type' }));
    expect(unknown.code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
  });

  it('lists find_skills right after resolve_logic_properties, read-only, with its arguments', async () => {
    const { tools } = await client.listTools();
    const listed = tools.map((tool) => tool.name);
    expect(listed.indexOf('find_skills')).toBe(listed.indexOf('resolve_logic_properties') + 1);
    const tool = tools.find((candidate) => candidate.name === 'find_skills')!;
    expect(tool.title).toBe('Find skills');
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.inputSchema.required).toEqual(['object_type_id']);
    expect(tool.inputSchema.properties?.top_k).toMatchObject({ minimum: 1, maximum: 20, default: 10 });
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['instance_identities', 'skill_query', 'kn_id', 'response_format']),
    );
  });
});

describe('find_skills without the skills object type (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ FIND_SKILLS_OBJECT_TYPE: 'nope' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('is a 404 whose details name the network, the configured type and the reason', async () => {
    const { body } = await request(app.url)
      .post(PUBLIC)
      .send({ kn_id: 'clinic', object_type_id: 'patient' })
      .expect(404);
    expect(body.code).toBe('agentRetrieval.NotFound.SkillsObjectTypeNotFound');
    expect(body.details).toEqual({
      kn_id: 'clinic',
      skills_object_type_id: 'nope',
      reason: 'the knowledge network has no object type "nope" (FIND_SKILLS_OBJECT_TYPE)',
    });
  });
});
