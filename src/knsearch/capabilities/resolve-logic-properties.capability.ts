import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { MAX_LOGIC_PROPERTIES } from '../knsearch.limits';
import { KnSearchService } from '../knsearch.service';
import { INSTANCES_OUTPUT } from './kn-schemas';

/** `resolve_logic_properties` and `POST /kn/logic-property-resolver`: computed properties of instances. */
export const RESOLVE_LOGIC_PROPERTIES = defineCapability({
  name: 'resolve_logic_properties',
  title: { 'en-US': 'Resolve logic properties', 'zh-Hans': '计算逻辑属性' },
  description: {
    'en-US':
      'Computes logic properties (metrics, operators) for given instances. Use it for derived values such as counts or scores; stored values come from query_object_instance.',
    'zh-Hans': '为指定实例计算逻辑属性（指标、算子）。用于计数、评分等派生值；存储的属性值请用 query_object_instance。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    ot_id: z.string().min(1).describe('Object type that declares the logic properties'),
    query: requiredText().describe('The user question the values are for (used to fill time ranges and inputs)'),
    _instance_identities: z
      .array(INSTANCE_IDENTITY)
      .min(1)
      .describe('Instances to compute for: `_instance_identity` values from query_object_instance'),
    properties: z
      .array(z.string().min(1))
      .min(1)
      .max(MAX_LOGIC_PROPERTIES)
      .describe('Logic property names (metrics/operators) to resolve'),
    additional_context: z
      .string()
      .optional()
      .describe('Extra context; a JSON object string supplies input parameter values by name'),
    options: z.looseObject({}).optional().describe('Accepted for compatibility with the upstream API; not used'),
  },
  output: INSTANCES_OUTPUT,
  rest: { method: 'POST', path: 'kn/logic-property-resolver' },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.resolveLogicProperties({
      kn_id: context.knId,
      ot_id: input.ot_id,
      query: input.query,
      _instance_identities: input._instance_identities,
      properties: input.properties,
      additional_context: input.additional_context,
    }),
});
