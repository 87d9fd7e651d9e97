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
      "Searches the indexed code for a question and expands the hits along the code graph. Use it to gather code context; to follow one symbol's callers use ci_call_chain.",
    'zh-Hans':
      '在已索引的代码中检索问题，并沿代码图扩展命中结果。用于收集代码上下文；追踪某个符号的调用方请用 ci_call_chain。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  needs: 'code-index',
  arguments: GRAPH_RAG_ARGUMENTS,
  output: GRAPH_RAG_OUTPUT,
  rest: { method: 'POST', path: 'code/graph_rag', prefixes: 'public' },
  service: CodeGraphRagService,
  run: (graphRag, { query, fusion_depth, budget }) =>
    timedWithCkbMetadata(() => graphRag.graphRag({ query, fusion_depth, budget })),
});
