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
      'Returns the definitions, callers and/or callees of a function, method or class, up to a depth, from CKB ' +
      'when available or else from a reference search over the indexed code. Each node is {symbol, file, line, ' +
      'distance}; metadata says whether CKB was used. Use after ci_graph_rag to see how a found symbol is reached.',
    'zh-Hans':
      '返回函数、方法或类的定义、调用方和/或被调用方（直到指定深度），CKB 可用时取自 CKB，否则对已索引代码做引用检索。' +
      '每个节点为 {symbol, file, line, distance}；元数据说明是否用到了 CKB。在 ci_graph_rag 之后用它查看某个符号如何被调用。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: CALL_CHAIN_ARGUMENTS,
  output: CALL_CHAIN_OUTPUT,
  rest: { method: 'POST', path: 'code/call_chain', prefixes: 'public' },
  service: CodeCallChainService,
  run: (callChain, { symbol, direction, depth }) =>
    timedWithCkbMetadata(() => callChain.callChain({ symbol, direction, depth })),
});
