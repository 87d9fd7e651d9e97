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
      'Find the skills (reusable procedures or playbooks the network defines, e.g. 糖尿病随访 or a ' +
      'CrashLoopBackOff triage) that apply to an object type or to specific instances of it. Returns `entries[]` ' +
      'of {skill_id, name, description}, best first: skills bound to the given instances through relations, then ' +
      'skills bound to the whole object type; when none is found, `message` says why and what to try. Use it ' +
      'after kn_search/kn_schema_search identified the object type and query_object_instance returned the ' +
      '`_instance_identity` values; then follow the chosen skill, using query_instance_subgraph, ' +
      'resolve_logic_properties or get_action_info for the data and actions it needs.',
    'zh-Hans':
      '查找适用于某个对象类或其具体实例的技能（网络中定义的可复用流程或处置手册，例如糖尿病随访、CrashLoopBackOff 排查）。' +
      '返回 `entries[]`（{skill_id, name, description}），按相关度排序：先是通过关系绑定到给定实例的技能，' +
      '再是绑定到整个对象类的技能；找不到时 `message` 说明原因和可尝试的做法。在 kn_search/kn_schema_search 确定了' +
      '对象类、query_object_instance 返回了 `_instance_identity` 之后使用；然后按所选技能，用 ' +
      'query_instance_subgraph、resolve_logic_properties 或 get_action_info 获取所需的数据和行动。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    object_type_id: z.string().min(1).describe('Object type the skills are for, e.g. `patient` or `pod`'),
    instance_identities: z
      .array(INSTANCE_IDENTITY)
      .optional()
      .describe(
        'Instances of that object type (`_instance_identity` values from query_object_instance); ' +
          'skills bound to these instances through relations rank first',
      ),
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
    skills.findSkills({
      kn_id: context.knId,
      object_type_id: input.object_type_id,
      instance_identities: input.instance_identities,
      skill_query: input.skill_query,
      top_k: input.top_k,
    }),
});
