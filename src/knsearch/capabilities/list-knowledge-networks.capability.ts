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
      'Lists the knowledge networks you may query (id, name, counts). Use it when the connection has no network yet; then get_kn_detail or kn_search with kn_id.',
    'zh-Hans':
      '列出你可查询的知识网络（id、名称、数量）。连接尚未指定网络时使用；之后用 get_kn_detail 或带 kn_id 的 kn_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  needs: 'no-network',
  arguments: {},
  output: OUTPUT,
  rest: { method: 'GET', path: 'kn/networks' },
  service: KnSearchService,
  run: async (knSearch, _input, context) => ({
    networks: (await knSearch.listNetworks()).filter((network) => context.seesNetwork(network.id)),
  }),
});
