import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { timedWithCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CodeCallChainService } from '../code-call-chain.service';
import { CALL_CHAIN_ARGUMENTS, CALL_CHAIN_OUTPUT } from './code-schemas';

/** `ci_call_chain` (seed 001): definitions, callers and callees of a symbol, with CKB's metadata. */
export const CI_CALL_CHAIN = defineCapability({
  name: 'ci_call_chain',
  title: { 'en-US': 'Code call chain', 'zh-Hans': '代码调用链' },
  description: {
    'en-US':
      'Follows the callers and callees of one function, method or class. Use it after ci_graph_rag found the symbol.',
    'zh-Hans': '追踪某个函数、方法或类的调用方与被调用方。在 ci_graph_rag 找到该符号后使用。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  needs: 'code-index',
  arguments: CALL_CHAIN_ARGUMENTS,
  output: CALL_CHAIN_OUTPUT,
  rest: { method: 'POST', path: 'code/call_chain', prefixes: 'public' },
  service: CodeCallChainService,
  run: (callChain, { symbol, direction, depth }) =>
    timedWithCkbMetadata(() => callChain.callChain({ symbol, direction, depth })),
});
