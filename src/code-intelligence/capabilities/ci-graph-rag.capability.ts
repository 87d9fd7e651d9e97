import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { timedWithCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CodeGraphRagService } from '../code-graph-rag.service';
import { GRAPH_RAG_ARGUMENTS, GRAPH_RAG_OUTPUT } from './code-schemas';

/** `ci_graph_rag` (seed 001): code hits expanded along the code graph, with CKB's metadata. */
export const CI_GRAPH_RAG = defineCapability({
  name: 'ci_graph_rag',
  title: { 'en-US': 'Code graph-RAG', 'zh-Hans': '代码图检索增强' },
  description: {
    'en-US':
      'Searches the indexed codebase for code relevant to a question and expands the hits along the code graph ' +
      '(CKB call graph/references when available, else the local import graph). Returns candidates ' +
      '{file, relevance 0-1, content, source, distance} within a token budget, plus metadata on CKB availability ' +
      '(ckb_available, ckb_fallback_reason, fallback_mode, fusion_depth). Use it to gather context before reading ' +
      'or changing code; then call ci_call_chain on a symbol from the candidates to follow its callers/callees.',
    'zh-Hans':
      '在已索引的代码库中检索与问题相关的代码，并沿代码图扩展命中结果（CKB 可用时用其调用图/引用，否则用本地导入图）。' +
      '在 token 预算内返回候选 {file, relevance 0-1, content, source, distance}，并附 CKB 可用性元数据' +
      '（ckb_available、ckb_fallback_reason、fallback_mode、fusion_depth）。在阅读或修改代码前用它收集上下文；' +
      '然后对候选中的某个符号调用 ci_call_chain，追踪其调用方/被调用方。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: GRAPH_RAG_ARGUMENTS,
  output: GRAPH_RAG_OUTPUT,
  rest: { method: 'POST', path: 'code/graph_rag', prefixes: 'public' },
  service: CodeGraphRagService,
  run: (graphRag, { query, fusion_depth, budget }) =>
    timedWithCkbMetadata(() => graphRag.graphRag({ query, fusion_depth, budget })),
});
