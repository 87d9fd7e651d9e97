import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { KnSearchService } from '../knsearch.service';
import { maxConceptsArgument, SCHEMA_SEARCH_OUTPUT, SEARCH_SCOPE_ARGUMENT } from './kn-schemas';

/** `kn_schema_search` and `POST /kn/semantic-search`: concept (schema) recall. */
export const KN_SCHEMA_SEARCH = defineCapability({
  name: 'kn_schema_search',
  title: { 'en-US': 'Search knowledge-network schema', 'zh-Hans': '检索知识网络概念' },
  description: {
    'en-US':
      'Lists the concepts (object, relation, action types) matching a question, with their details. Use it to pick an ot_id or at_id; for instances use kn_search.',
    'zh-Hans':
      '列出与问题匹配的概念（对象类、关系类、行动类）及其详情。用于选出 ot_id 或 at_id；要找实例请用 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    query: requiredText().describe('What the user is asking about, in their words (e.g. "患者的诊断和用药")'),
    search_scope: SEARCH_SCOPE_ARGUMENT,
    max_concepts: maxConceptsArgument('Most concepts to return'),
  },
  output: SCHEMA_SEARCH_OUTPUT,
  rest: { method: 'POST', path: 'kn/semantic-search' },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.semanticSearch({
      kn_id: context.knId,
      query: input.query,
      search_scope: input.search_scope,
      max_concepts: input.max_concepts,
    }),
});
