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
      'Explore the schema of a knowledge network for a question in one call: returns `object_types` (entities with ' +
      'their data and logic properties; the endpoints of the returned relations come first), `relation_types` ' +
      '(how object types connect, with source and target ids), `action_types` (executable operations) and ' +
      '`metric_types` (business measures with unit, formula, scope and analysis dimensions). All four arrays are ' +
      'always present. Use it first to learn the ids a question needs. Next: query_object_instance (an object ' +
      'type id), query_instance_subgraph (relation type ids), resolve_logic_properties, find_skills, ' +
      'get_action_info / execute_action (an action type id).',
    'zh-Hans':
      '一次调用探索与问题相关的知识网络模式：返回 `object_types`（实体及其数据属性和逻辑属性，所返回关系的端点排在前面）、' +
      '`relation_types`（对象类之间如何关联，含起止 id）、`action_types`（可执行的操作）和 `metric_types`' +
      '（业务指标，含单位、公式、范围和分析维度），四个数组总会返回。先用它找到问题需要的 id。下一步：' +
      'query_object_instance（对象类 id）、query_instance_subgraph（关系类 id）、resolve_logic_properties、' +
      'find_skills、get_action_info / execute_action（行动类 id）。',
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
    schema_brief: z.boolean().default(false).describe('true: ids, names and property names/types only'),
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
      schema_brief: input.schema_brief,
      enable_rerank: input.enable_rerank,
    }),
});
