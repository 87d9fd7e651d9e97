import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { KnSearchService } from '../knsearch.service';
import { maxConceptsArgument, SCHEMA_SCOPE_ARGUMENT, SCHEMA_TYPES_OUTPUT } from './kn-schemas';

/** `search_schema` (upstream HEAD): the four concept types for a question, with metric types. */
export const SEARCH_SCHEMA = defineCapability({
  name: 'search_schema',
  title: { 'en-US': 'Search knowledge-network schema and metrics', 'zh-Hans': '检索知识网络模式与指标' },
  description: {
    'en-US':
      'Finds the object, relation, action and metric types relevant to a question, without instances. Use it when you need metric types or a ranked schema; for instances use kn_search.',
    'zh-Hans':
      '查找与问题相关的对象类、关系类、行动类和指标类（不含实例）。需要指标类或按相关度排序的模式时使用；要找实例请用 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    query: requiredText().describe('What the user is asking about, in their words (e.g. "糖尿病患者的用药")'),
    search_scope: SCHEMA_SCOPE_ARGUMENT,
    max_concepts: maxConceptsArgument(
      'Relation types kept, object types beyond their endpoints, and metric types returned',
    ),
    schema_brief: z
      .boolean()
      .optional()
      .describe('true: ids, names and property names/types only (default: true for MCP and chat, false for REST)'),
    enable_rerank: z.boolean().default(true).describe('Rank relation types by relevance before cutting'),
  },
  output: SCHEMA_TYPES_OUTPUT,
  rest: { method: 'POST', path: 'kn/search_schema' },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.searchSchema({
      kn_id: context.knId,
      query: input.query,
      search_scope: input.search_scope,
      max_concepts: input.max_concepts,
      // Agents get the brief schema unless they ask for every field; REST keeps the upstream default.
      schema_brief: input.schema_brief ?? context.door !== 'rest',
      enable_rerank: input.enable_rerank,
    }),
});
