import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { SKILLS_TOP_K } from '../knsearch.limits';
import { SkillsService } from '../skills.service';
import { SKILLS_OUTPUT } from './kn-schemas';

/** `find_skills` (upstream HEAD): skills bound to an object type or to instances of it. */
export const FIND_SKILLS = defineCapability({
  name: 'find_skills',
  title: { 'en-US': 'Find skills', 'zh-Hans': '查找技能' },
  description: {
    'en-US':
      'Finds the skills bound to an object type or its instances. Use it when the user asks how to handle something (a procedure, a runbook); for data use the query tools.',
    'zh-Hans': '查找绑定到某对象类或其实例的技能。用户询问如何处理某事（流程、操作手册）时使用；查数据请用查询类工具。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  // The names every other tool uses for the object type and the instances.
  aliases: { ot_id: 'object_type_id', _instance_identities: 'instance_identities' },
  arguments: {
    object_type_id: z.string().min(1).describe('Object type the skills are for, e.g. `patient` or `pod`'),
    instance_identities: z
      .array(INSTANCE_IDENTITY)
      .optional()
      .describe('Instances (`_instance_identity` values); skills bound to them rank first'),
    skill_query: z
      .string()
      .optional()
      .describe('Words the skill name or description must share, e.g. 随访 or triage; omit to get every bound skill'),
    top_k: z
      .number()
      .int()
      .min(SKILLS_TOP_K.min)
      .max(SKILLS_TOP_K.max)
      .default(SKILLS_TOP_K.default)
      .describe('How many skills to return'),
  },
  output: SKILLS_OUTPUT,
  rest: { method: 'POST', path: 'kn/find_skills' },
  service: SkillsService,
  run: (skills, input, context) =>
    skills.findSkills(
      {
        kn_id: context.knId,
        object_type_id: input.object_type_id,
        instance_identities: input.instance_identities,
        skill_query: input.skill_query,
        top_k: input.top_k,
      },
      context.language,
    ),
});
