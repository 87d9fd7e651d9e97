import type { I18nService } from 'nestjs-i18n';
import type { Language } from '../config/i18n.config';
import { AppException } from '../common/errors/app.exception';
import { InputLimits } from '../common/limits/input-limits';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import {
  KnSchema,
  ObjectInstance,
  ObjectType,
  RelationType,
  RelationTypePath,
  SubgraphEntry,
} from '../knowledge-network/knowledge-network.types';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';
import { bindingChains } from './skill-bindings';
import { SkillsService } from './skills.service';
import { FindSkillsRequest } from './skills.types';

const CONFIG = testConfig();

const objectType = (id: string, properties: string[], keys = [properties[0]]): ObjectType => ({
  id,
  name: id,
  data_properties: properties.map((name) => ({ name, type: 'string', condition_operations: ['==', 'like'] })),
  logic_properties: [],
  primary_keys: keys,
});
const relation = (id: string, source: string, target: string): RelationType => ({
  id,
  name: id,
  source_object_type_id: source,
  target_object_type_id: target,
});

const SKILLS = objectType('skills', ['skill_id', 'name', 'description', 'object_type_id']);
const SCHEMA: KnSchema = {
  id: 'kn',
  name: 'kn',
  object_types: [
    objectType('patient', ['patient_id', 'diagnosis_id']),
    objectType('diagnosis', ['diagnosis_id']),
    objectType('doctor', ['doctor_id']),
    objectType('visit', ['clinic', 'number'], ['clinic', 'number']),
    SKILLS,
  ],
  relation_types: [
    relation('patient_has_diagnosis', 'patient', 'diagnosis'),
    relation('skill_for_diagnosis', 'skills', 'diagnosis'),
    relation('skill_for_patient', 'skills', 'patient'),
    relation('visit_of_patient', 'visit', 'patient'),
  ],
  action_types: [],
  concept_groups: [],
};

type Skill = { skill_id: string; name: string; description?: string; object_type_id?: string };

const instance = (skill: Skill): ObjectInstance => ({ ...skill, _instance_identity: { skill_id: skill.skill_id } });

/** One subgraph entry: each skill reached by a path of `hops` relations from patient P1. */
function entry(reached: { skill: Skill; hops: number }[]): SubgraphEntry {
  const objects: SubgraphEntry['objects'] = {};
  const relation_paths = reached.map(({ skill, hops }) => {
    const id = `skills:${skill.skill_id}`;
    objects[id] = {
      id,
      unique_identities: { skill_id: skill.skill_id },
      object_type_id: 'skills',
      object_type_name: 'skills',
      display: skill.name,
      properties: skill,
    };
    const relations = [{ relation_type_id: 'r', source_object_id: id, target_object_id: 'patient:P1' }];
    if (hops === 2)
      relations.unshift({ relation_type_id: 'r0', source_object_id: 'patient:P1', target_object_id: 'x' });
    return { relations };
  });
  return { objects, relation_paths, total_count: reached.length };
}

interface Fixture {
  schema?: KnSchema;
  reached?: { skill: Skill; hops: number }[];
  skills?: Skill[];
  skillsObjectType?: string;
}

function service(fixture: Fixture = {}) {
  const skills = fixture.skills ?? [];
  const port = mockPort(KnowledgeNetworkPort, {
    exportSchema: async () => fixture.schema ?? SCHEMA,
    queryInstances: async (_kn, _ot, query) => ({
      // The object-type query asks `like %<ot>%`; the emptiness check asks for any one skill.
      datas: (query.condition
        ? skills.filter((skill) => (skill.object_type_id ?? '').includes(String(query.condition?.value).slice(1, -1)))
        : skills
      )
        .slice(0, query.limit)
        .map(instance),
    }),
    querySubgraph: async () => ({ entries: fixture.reached ? [entry(fixture.reached)] : [] }),
  });
  const i18n = { translate: (key: string, options: { lang: string }) => `${options.lang}:${key}` };
  const knConfig = { ...CONFIG.kn, skillsObjectType: fixture.skillsObjectType ?? 'skills' };
  const skillsService = new SkillsService(
    port,
    new InputLimits(CONFIG.limits),
    i18n as unknown as I18nService,
    knConfig,
    CONFIG.i18n,
  );
  return {
    port,
    find: (request: Partial<FindSkillsRequest>, language?: Language) =>
      skillsService.findSkills({ kn_id: 'kn', object_type_id: 'patient', ...request }, language),
  };
}

const failure = async (promise: Promise<unknown>): Promise<AppException> => {
  try {
    await promise;
  } catch (error) {
    return error as AppException;
  }
  throw new Error('expected a failure');
};

const FOLLOW_UP: Skill = { skill_id: 'S9', name: '糖尿病随访', description: '复查血糖' };
const CHECKUP: Skill = { skill_id: 'S5', name: '年度体检', description: '体检提醒' };
const INTAKE: Skill = { skill_id: 'S1', name: '患者建档', object_type_id: 'patient visit' };
const CONSULT: Skill = { skill_id: 'S2', name: '用药咨询', object_type_id: 'drug,patient' };
const PATIENT_1 = [{ patient_id: 'P1' }];

describe('find_skills binding chains', () => {
  it('lists one-hop chains first, then two-hop chains through a third type, never back through the start', () => {
    expect(bindingChains(SCHEMA, 'patient', 'skills').map((chain) => chain.map((r) => r.id))).toEqual([
      ['skill_for_patient'],
      ['patient_has_diagnosis', 'skill_for_diagnosis'],
    ]);
    expect(bindingChains(SCHEMA, 'visit', 'skills').map((chain) => chain.map((r) => r.id))).toEqual([
      ['visit_of_patient', 'skill_for_patient'],
    ]);
    expect(bindingChains(SCHEMA, 'doctor', 'skills')).toEqual([]);
  });

  it('keeps at most eight chains', () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      relation(`skill_for_patient_${String(i).padStart(2, '0')}`, 'skills', 'patient'),
    );
    const schema = { ...SCHEMA, relation_types: [...SCHEMA.relation_types, ...many] };
    expect(bindingChains(schema, 'patient', 'skills')).toHaveLength(8);
  });
});

describe('SkillsService.findSkills', () => {
  it('ranks instance-bound skills (priority 100) above object-type skills (50), nearer paths first', async () => {
    const { find } = service({
      reached: [
        { skill: FOLLOW_UP, hops: 2 },
        { skill: CHECKUP, hops: 1 },
      ],
      skills: [INTAKE, CONSULT],
    });
    const { entries, message } = await find({ instance_identities: PATIENT_1 });
    expect(entries.map((skill) => skill.skill_id)).toEqual(['S5', 'S9', 'S1', 'S2']);
    expect(entries[1]).toEqual({ skill_id: 'S9', name: '糖尿病随访', description: '复查血糖' });
    expect(message).toBeUndefined();
  });

  it('keeps one entry per skill_id: the highest priority, then the highest score', async () => {
    const bound = { ...INTAKE, object_type_id: 'patient' };
    const { find } = service({
      reached: [
        { skill: bound, hops: 2 },
        { skill: bound, hops: 1 },
        { skill: FOLLOW_UP, hops: 2 },
      ],
      skills: [bound],
    });
    const { entries } = await find({ instance_identities: PATIENT_1 });
    // S1 came at 100/1.0 (one hop), at 100/0.5 and at 50/1.0; it outranks S9 (100/0.5) once.
    expect(entries.map((skill) => skill.skill_id)).toEqual(['S1', 'S9']);
  });

  it('breaks ties by skill_id ascending and cuts to top_k', async () => {
    const tied = ['S3', 'S1', 'S2'].map((id) => ({ skill_id: id, name: id, object_type_id: 'patient' }));
    const { find } = service({ skills: tied });
    expect((await find({})).entries.map((skill) => skill.skill_id)).toEqual(['S1', 'S2', 'S3']);
    expect((await find({ top_k: 2 })).entries.map((skill) => skill.skill_id)).toEqual(['S1', 'S2']);
  });

  it('object-type mode needs the type named exactly or as one item of a list, not inside another id', async () => {
    const outpatient = { skill_id: 'S4', name: '门诊', object_type_id: 'outpatient' };
    const { find } = service({ skills: [INTAKE, CONSULT, outpatient] });
    expect((await find({})).entries.map((skill) => skill.skill_id)).toEqual(['S1', 'S2']);
  });

  it('walks the chains from the identities: == on every primary key, or across identities', async () => {
    const { port, find } = service({ schema: SCHEMA });
    await find({
      object_type_id: 'visit',
      instance_identities: [{ clinic: 'A', number: 1 }, {}, { clinic: 'B', number: 2 }],
    });
    const [, paths] = port.querySubgraph.mock.calls[0] as [string, RelationTypePath[]];
    expect(paths).toHaveLength(1);
    expect(paths[0].object_types.map((step) => step.id)).toEqual(['visit', 'patient', 'skills']);
    expect(paths[0].object_types[0]).toMatchObject({
      limit: 2,
      condition: {
        operation: 'or',
        sub_conditions: [
          {
            operation: 'and',
            sub_conditions: [
              { operation: '==', field: 'clinic', value: 'A' },
              { operation: '==', field: 'number', value: 1 },
            ],
          },
          {
            operation: 'and',
            sub_conditions: [
              { operation: '==', field: 'clinic', value: 'B' },
              { operation: '==', field: 'number', value: 2 },
            ],
          },
        ],
      },
    });
    expect(paths[0].relation_types.map((hop) => hop.relation_type_id)).toEqual([
      'visit_of_patient',
      'skill_for_patient',
    ]);
  });

  it('names instances of a single-key type with one `in` over the key, duplicates once', async () => {
    const { port, find } = service();
    await find({ instance_identities: [{ patient_id: 'P1' }, { patient_id: 'P2' }, { patient_id: 'P1' }] });
    const [, paths] = port.querySubgraph.mock.calls[0] as [string, RelationTypePath[]];
    expect(paths.map((path) => path.object_types[0].condition)).toEqual([
      { operation: 'in', field: 'patient_id', value: ['P1', 'P2'] },
      { operation: 'in', field: 'patient_id', value: ['P1', 'P2'] },
    ]);
  });

  it('an identity without a primary key is a 400 naming it', async () => {
    const error = await failure(service().find({ instance_identities: [{ patient_id: 'P1' }, { name: 'x' }] }));
    expect(error.status).toBe(400);
    expect(error.details).toBe('instance_identities[1] lacks primary key "patient_id" of object type "patient"');
  });

  it('checks instance_identities against MAX_INSTANCE_IDENTITIES before any work', async () => {
    const { port, find } = service();
    const identities = Array.from({ length: CONFIG.limits.instanceIdentities + 1 }, (_, i) => ({
      patient_id: `P${i}`,
    }));
    const error = await failure(find({ instance_identities: identities }));
    expect(error.status).toBe(400);
    expect(port.exportSchema).not.toHaveBeenCalled();
  });

  it('skill_query keeps the skills sharing its words and boosts the better match', async () => {
    const both: Skill = { skill_id: 'S0', name: '高血压随访', description: '血压 随访' };
    const { find } = service({
      reached: [
        { skill: FOLLOW_UP, hops: 1 },
        { skill: both, hops: 1 },
        { skill: CHECKUP, hops: 1 },
      ],
    });
    const { entries } = await find({ instance_identities: PATIENT_1, skill_query: '随访 血压' });
    expect(entries.map((skill) => skill.skill_id)).toEqual(['S0', 'S9']);
  });

  it('skill_query matches inside longer words of three letters or more', async () => {
    const crash: Skill = { skill_id: 'crashloop_triage', name: 'CrashLoopBackOff triage' };
    const { find } = service({ reached: [{ skill: crash, hops: 1 }] });
    expect((await find({ instance_identities: PATIENT_1, skill_query: 'crashloop' })).entries).toHaveLength(1);
  });

  describe('the empty-result message, by mode, in the caller language', () => {
    it.each<[string, string, Fixture, Partial<FindSkillsRequest>]>([
      ['skill_query filtered everything', 'skill_query_no_match', { skills: [INTAKE] }, { skill_query: '心电图' }],
      ['the network has no skills', 'network_no_skills', {}, {}],
      [
        'no chain, no skill names the type',
        'object_type_no_binding',
        { skills: [INTAKE] },
        { object_type_id: 'doctor' },
      ],
      [
        'instances given, none bound',
        'instance_no_match',
        { skills: [INTAKE] },
        { object_type_id: 'diagnosis', instance_identities: [{ diagnosis_id: 'D1' }] },
      ],
      ['no instances given', 'object_type_no_match', { skills: [INTAKE] }, { object_type_id: 'diagnosis' }],
    ])('%s → %s', async (_case, key, fixture, request) => {
      const { entries, message } = await service(fixture).find(request);
      expect(entries).toEqual([]);
      expect(message).toBe(`en-US:find_skills.${key}`);
    });

    it('follows the request language', async () => {
      const answer = await service().find({}, 'zh-Hans');
      expect(answer.message).toBe('zh-Hans:find_skills.network_no_skills');
    });
  });

  it('a missing skills object type is a 404 with kn_id, skills_object_type_id and reason', async () => {
    const error = await failure(service({ skillsObjectType: 'nope' }).find({}));
    expect(error.status).toBe(404);
    expect(error.definition.code).toBe('agentRetrieval.NotFound.SkillsObjectTypeNotFound');
    expect(error.details).toEqual({
      kn_id: 'kn',
      skills_object_type_id: 'nope',
      reason: expect.stringContaining('nope'),
    });
  });

  it('a skills object type without skill_id or name is a 400 listing the missing properties', async () => {
    const error = await failure(service({ skillsObjectType: 'visit' }).find({}));
    expect(error.status).toBe(400);
    expect(error.details).toEqual({
      kn_id: 'kn',
      skills_object_type_id: 'visit',
      reason: expect.any(String),
      missing_data_properties: ['skill_id', 'name'],
    });
  });

  it('an unknown object_type_id is a 404', async () => {
    const error = await failure(service().find({ object_type_id: 'nope' }));
    expect(error.status).toBe(404);
    expect(error.definition.code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
  });
});
