import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { kbConnection } from '../kb-connection';
import { KB_CONNECTION_HEADERS, KbDoor } from './kb-door';

const OUTPUT = z.looseObject({
  knowledge_bases: z.array(
    z.looseObject({ id: z.string(), name: z.string(), description: z.string(), document_count: z.number().int() }),
  ),
});

/** The knowledge bases of the connection's scope (beyond seed 003, as WeKnora's own client offers it). */
export const WEKNORA_LIST_KNOWLEDGE_BASES = defineCapability({
  name: 'weknora_list_knowledge_bases',
  title: { 'en-US': 'List knowledge bases', 'zh-Hans': '列出知识库' },
  description: {
    'en-US':
      'List the knowledge bases this connection can search with weknora_search: id, name, description and ' +
      'document count. Use it to see what documents exist before searching, or to tell the user which ' +
      'knowledge bases to scope the connection to (X-WeKnora-KB-IDs). Next: weknora_search with a question.',
    'zh-Hans':
      '列出本连接可用 weknora_search 检索的知识库：id、名称、说明和文档数。用它在检索前了解有哪些文档，' +
      '或告诉用户可以把连接限定到哪些知识库（X-WeKnora-KB-IDs）。下一步：用问题调用 weknora_search。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {},
  output: OUTPUT,
  rest: { method: 'GET', path: 'kb/knowledge-bases', headers: KB_CONNECTION_HEADERS },
  service: KbDoor,
  run: (door, _input, context) => door.service.listKnowledgeBases(kbConnection(context.headers, door.config)),
});
