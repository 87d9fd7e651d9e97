import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { KnSearchService } from '../knsearch.service';

const RECORDS = z.array(z.looseObject({ id: z.string(), name: z.string() }));

const OUTPUT = z.looseObject({
  id: z.string(),
  name: z.string(),
  counts: z.looseObject({
    object_types: z.number().int(),
    relation_types: z.number().int(),
    action_types: z.number().int(),
    metric_types: z.number().int(),
  }),
  concept_groups: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  object_types: RECORDS,
  relation_types: RECORDS,
  action_types: RECORDS,
  metric_types: RECORDS,
});

/** `get_kn_detail`: one network's concept groups and types with counts, brief by default. */
export const GET_KN_DETAIL = defineCapability({
  name: 'get_kn_detail',
  title: { 'en-US': 'Describe a knowledge network', 'zh-Hans': '查看知识网络详情' },
  description: {
    'en-US':
      'Describe one knowledge network: counts, concept groups, and its object types, relation types (with their ' +
      'source and target object types), action types and metric types (with their scope) — ids and names by ' +
      'default, every field with brief=false. Use it to learn a network before querying it. Next: search_schema ' +
      'or kn_search for a question, query_object_instance with an object type id.',
    'zh-Hans':
      '描述一个知识网络：各类数量、概念分组，以及对象类、关系类（含起止对象类）、行动类和指标类（含作用范围）——' +
      '默认只给 id 和名称，brief=false 时给出全部字段。查询前先用它了解网络。下一步：针对问题调用 search_schema ' +
      '或 kn_search，或用对象类 id 调用 query_object_instance。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    brief: z
      .boolean()
      .default(true)
      .describe('true (default): ids, names and relation endpoints only; false: every field of every type'),
  },
  output: OUTPUT,
  service: KnSearchService,
  run: (knSearch, input, context) => knSearch.networkDetail(context.knId, input.brief),
});
