import type { Localized } from '../capabilities/capability';

/**
 * The server's `instructions` (initialize and server/discover), in the caller's language: the order to
 * explore in and which tool fits which question. Tools a connection is not offered are simply absent.
 */
export const SERVER_INSTRUCTIONS: Localized = {
  'en-US':
    'Governed access to business knowledge networks. Explore in this order: ' +
    '1) without a network on the connection (X-Kn-ID), list_knowledge_networks, then get_kn_detail with a kn_id; ' +
    '2) for any question, kn_search first: it finds the relevant types and matching instances; ' +
    '3) then query_object_instance to filter one type exactly, query_instance_subgraph to follow relations, ' +
    'resolve_logic_properties for computed values, find_skills for procedures; ' +
    '4) to act, get_action_info, and execute_action only once the user agreed. ' +
    'Documents (guidelines, runbooks): weknora_search. Code: ci_graph_rag, then ci_call_chain. ' +
    'Results hold the data in structuredContent; the text is a compact rendering of it.',
  'zh-Hans':
    '受治理地访问业务知识网络。按此顺序探索：' +
    '1）连接未指定网络（X-Kn-ID）时，先用 list_knowledge_networks，再带 kn_id 调用 get_kn_detail；' +
    '2）任何问题先用 kn_search：它找出相关类型和匹配的实例；' +
    '3）然后用 query_object_instance 精确筛选某一类型，用 query_instance_subgraph 沿关系展开，' +
    '用 resolve_logic_properties 计算派生值，用 find_skills 查找处理流程；' +
    '4）要执行操作时先用 get_action_info，只有在用户同意后才调用 execute_action。' +
    '文档（指南、手册）：weknora_search。代码：先 ci_graph_rag，再 ci_call_chain。' +
    '结果的数据在 structuredContent 中；文本是其紧凑呈现。',
};
