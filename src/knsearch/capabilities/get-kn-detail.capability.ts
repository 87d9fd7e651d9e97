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
      'Describes one network: its object, relation, action and metric types (ids and names; brief=false for every field). Use it to learn a network before querying; for a question use kn_search.',
    'zh-Hans':
      '描述一个知识网络：对象类、关系类、行动类和指标类（默认仅 id 与名称；brief=false 返回全部字段）。查询前用它了解网络；针对具体问题请用 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  needs: 'nothing',
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
