import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { briefKnSearch } from '../kn-search-brief';
import { KnSearchService } from '../knsearch.service';
import { KN_SEARCH_OUTPUT, SEARCH_SCOPE_ARGUMENT } from './kn-schemas';

/** `kn_search` (kn_search v2): concept recall plus semantic instance recall. */
export const KN_SEARCH = defineCapability({
  name: 'kn_search',
  title: { 'en-US': 'Search knowledge network', 'zh-Hans': '搜索知识网络' },
  description: {
    'en-US':
      'Start here for any question about a network: finds the relevant types and matching instances (nodes) in one call. Then use query_object_instance to filter exactly or query_instance_subgraph to follow relations.',
    'zh-Hans':
      '针对网络的任何问题都从这里开始：一次调用找出相关类型和匹配的实例（nodes）。之后用 query_object_instance 精确筛选，或用 query_instance_subgraph 沿关系展开。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  needs: 'nothing',
  arguments: {
    query: requiredText().describe('The user question or keywords (e.g. "糖尿病治疗方案")'),
    only_schema: z.boolean().default(false).describe('true: return only concepts, no instance nodes'),
    enable_rerank: z.boolean().default(true).describe('Rerank recalled concepts for relevance'),
    search_scope: SEARCH_SCOPE_ARGUMENT,
    retrieval_config: z
      .looseObject({})
      .optional()
      .describe('Tuning: concept_retrieval.top_k, semantic_instance_retrieval.*, property_filter.*'),
    detail: z
      .enum(['brief', 'full'])
      .optional()
      .describe(
        'Fields of the answer: brief (default for MCP and chat, what an agent needs) or full (default for REST)',
      ),
    cursor: z.string().max(64).optional().describe('next_cursor of the previous answer: the next page of nodes'),
  },
  output: KN_SEARCH_OUTPUT,
  rest: { method: 'POST', path: 'kn/kn_search' },
  service: KnSearchService,
  run: async (knSearch, input, context) => {
    const answer = await knSearch.knSearch({
      kn_id: context.knId,
      query: input.query,
      only_schema: input.only_schema,
      enable_rerank: input.enable_rerank,
      search_scope: input.search_scope,
      retrieval_config: input.retrieval_config,
    });
    // REST keeps the upstream answer; agents get the brief one unless they ask for every field.
    const detail = input.detail ?? (context.door === 'rest' ? 'full' : 'brief');
    return detail === 'full' ? answer : briefKnSearch(answer, input.cursor);
  },
});
