import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { KnSearchService } from '../knsearch.service';
import { KN_SEARCH_OUTPUT, SEARCH_SCOPE_ARGUMENT } from './kn-schemas';

/** `kn_search` (kn_search v2): concept recall plus semantic instance recall. */
export const KN_SEARCH = defineCapability({
  name: 'kn_search',
  title: { 'en-US': 'Search knowledge network', 'zh-Hans': '搜索知识网络' },
  description: {
    'en-US':
      'Search the knowledge network for a question in one call: recalls the relevant object_types, ' +
      'relation_types and action_types (schema) and, unless only_schema=true, the instance `nodes` that match ' +
      'semantically (each with object_type_id, instance_name, unique_identities, properties and score), plus ' +
      '`message` when nothing matched. Use it as the entry point for open questions. Next: query_object_instance ' +
      '(ot_id + condition) to filter instances exactly, query_instance_subgraph to follow relations from a node, ' +
      'resolve_logic_properties for computed values and get_action_info (at_id + unique_identities) for ' +
      'executable actions.',
    'zh-Hans':
      '一次调用就问题检索知识网络：召回相关的 object_types、relation_types 和 action_types（模式），' +
      '除非 only_schema=true，还会返回语义匹配的实例 `nodes`（每个含 object_type_id、instance_name、' +
      'unique_identities、properties 和 score），无结果时给出 `message`。开放式问题以它为入口。下一步：' +
      '用 query_object_instance（ot_id + condition）精确筛选实例，用 query_instance_subgraph 从某个节点沿关系展开，' +
      '用 resolve_logic_properties 计算逻辑属性，用 get_action_info（at_id + unique_identities）获取可执行的行动。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    query: requiredText().describe('The user question or keywords (e.g. "糖尿病治疗方案")'),
    only_schema: z.boolean().default(false).describe('true: return only concepts, no instance nodes'),
    enable_rerank: z.boolean().default(true).describe('Rerank recalled concepts for relevance'),
    search_scope: SEARCH_SCOPE_ARGUMENT,
    retrieval_config: z
      .looseObject({})
      .optional()
      .describe('Tuning: concept_retrieval.top_k, semantic_instance_retrieval.*, property_filter.*'),
  },
  output: KN_SEARCH_OUTPUT,
  rest: { method: 'POST', path: 'kn/kn_search' },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.knSearch({
      kn_id: context.knId,
      query: input.query,
      only_schema: input.only_schema,
      enable_rerank: input.enable_rerank,
      search_scope: input.search_scope,
      retrieval_config: input.retrieval_config,
    }),
});
