import { CI_CALL_CHAIN } from './ci-call-chain.capability';
import { CI_GRAPH_RAG } from './ci-graph-rag.capability';

export const CODE_CAPABILITIES = [CI_GRAPH_RAG, CI_CALL_CHAIN];
