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
      'Find the schema concepts of the knowledge network that match a question: object types (entities such as ' +
      'patient or drug, with their data properties and primary keys), relation types (how object types connect) ' +
      'and action types (operations that can be executed). Returns `concepts[]` with concept_type, concept_id, ' +
      'concept_name and the full concept_detail. Use it first when you do not yet know the ids: pass an object ' +
      'type id (ot_id) to query_object_instance, relation type ids to query_instance_subgraph, logic properties ' +
      'to resolve_logic_properties and an action type id (at_id) to get_action_info. For concepts plus matching ' +
      'instances in one call, use kn_search.',
    'zh-Hans':
      '查找与问题匹配的知识网络概念：对象类（如患者、药品等实体，含数据属性和主键）、关系类（对象类之间的关联）' +
      '和行动类（可执行的操作）。返回 `concepts[]`，含 concept_type、concept_id、concept_name 和完整的 ' +
      'concept_detail。尚不知道 id 时先用它：把对象类 id（ot_id）交给 query_object_instance，关系类 id 交给 ' +
      'query_instance_subgraph，逻辑属性交给 resolve_logic_properties，行动类 id（at_id）交给 get_action_info。' +
      '想一次拿到概念和匹配的实例，请用 kn_search。',
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
