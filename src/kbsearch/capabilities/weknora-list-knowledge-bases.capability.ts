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
    'en-US': 'Lists the knowledge bases weknora_search can read. Use it to see which documents are available.',
    'zh-Hans': '列出 weknora_search 可检索的知识库。用于了解有哪些文档可用。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  needs: 'knowledge-base',
  arguments: {},
  output: OUTPUT,
  rest: { method: 'GET', path: 'kb/knowledge-bases', headers: KB_CONNECTION_HEADERS },
  service: KbDoor,
  run: (door, _input, context) =>
    door.service.listKnowledgeBases(kbConnection(context.headers, door.config, context.requestId)),
});
