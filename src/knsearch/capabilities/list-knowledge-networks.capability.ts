import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { KnSearchService } from '../knsearch.service';

const OUTPUT = z.looseObject({
  networks: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      object_type_count: z.number().int(),
      relation_type_count: z.number().int(),
      action_type_count: z.number().int(),
    }),
  ),
});

/** `list_knowledge_networks` and `GET /kn/networks`: the networks the caller may see. */
export const LIST_KNOWLEDGE_NETWORKS = defineCapability({
  name: 'list_knowledge_networks',
  title: { 'en-US': 'List knowledge networks', 'zh-Hans': '列出知识网络' },
  description: {
    'en-US':
      'List the knowledge networks this service serves: id, name, description and counts of object, relation ' +
      'and action types (and instances when known). Use it first when the connection has no X-Kn-ID or the user ' +
      'asks what data exists. Next: get_kn_detail with a kn_id, then search_schema or kn_search with that kn_id.',
    'zh-Hans':
      '列出本服务提供的知识网络：id、名称、说明，以及对象类、关系类、行动类的数量（已知时还有实例数）。' +
      '连接未设置 X-Kn-ID 或用户询问有哪些数据时先调用它。下一步：用某个 kn_id 调用 get_kn_detail，' +
      '再用该 kn_id 调用 search_schema 或 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {},
  output: OUTPUT,
  rest: { method: 'GET', path: 'kn/networks' },
  service: KnSearchService,
  run: async (knSearch, _input, context) => ({
    networks: (await knSearch.listNetworks()).filter((network) => context.seesNetwork(network.id)),
  }),
});
