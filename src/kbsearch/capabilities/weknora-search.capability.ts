import { z } from 'zod';
import { defineCapability, READ_ONLY, RestRoute } from '../../capabilities/capability';
import { kbConnection } from '../kb-connection';
import { SEARCH_TEXT } from '../kb-markdown';
import { KB_SEARCH_ARGUMENTS } from '../kb-search.arguments';
import { KB_CONNECTION_HEADERS, KbDoor } from './kb-door';

/** Seed 003 §2.1's description, word for word. */
const DESCRIPTION = `Search knowledge bases for relevant information using hybrid search (vector + keyword).

This tool queries WeKnora knowledge bases to find documents and chunks matching your query.
It supports both semantic understanding and keyword matching for comprehensive results.

**When to use:**
- Answer questions requiring specific knowledge from documents
- Find relevant context for complex topics
- Verify facts against stored knowledge

**Query strategies:**
- Use specific keywords for precise matches
- Use natural language for semantic search
- Combine both for best results

**Response interpretation:**
- High relevance (score > 0.8): Directly relevant content
- Medium relevance (0.5-0.8): Related but may need verification
- Low relevance (< 0.5): Tangentially related

If results are insufficient, consider:
1. Rephrasing with different keywords
2. Breaking complex queries into simpler parts
3. Using more specific terminology from the domain`;

const DESCRIPTION_ZH = `使用混合检索（向量 + 关键词）在知识库中查找相关信息。

该工具查询 WeKnora 知识库，找出与查询匹配的文档和片段，兼顾语义理解与关键词匹配。

**何时使用：**
- 回答需要文档中特定知识的问题
- 为复杂话题查找相关上下文
- 用已存储的知识核实事实

**查询策略：**
- 用具体关键词精确匹配
- 用自然语言进行语义检索
- 两者结合效果最好

**结果解读：**
- 高相关（score > 0.8）：直接相关的内容
- 中等相关（0.5-0.8）：相关，但可能需要核实
- 低相关（< 0.5）：只是间接相关

结果不够时，可以：
1. 换用不同的关键词重新表述
2. 把复杂问题拆成更简单的部分
3. 使用该领域更专业的术语`;

const RESULT = z.looseObject({ id: z.string(), content: z.string(), score: z.number(), match_type: z.string() });

export const KB_SEARCH_OUTPUT = z.looseObject({
  query: z.string(),
  results: z.array(RESULT),
  total_count: z.number().int(),
  returned: z.number().int(),
  search_mode: z.string(),
});

const REST: RestRoute = { method: 'POST', path: 'kb/search', headers: KB_CONNECTION_HEADERS };

/**
 * `weknora_search` (seed 003): arguments and text exactly as the seed defines them; the credential and
 * knowledge-base ids come from the connection's headers or the server config, never from arguments.
 */
export const WEKNORA_SEARCH = defineCapability({
  name: 'weknora_search',
  title: { 'en-US': 'Search knowledge bases', 'zh-Hans': '检索知识库' },
  description: { 'en-US': DESCRIPTION, 'zh-Hans': DESCRIPTION_ZH },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  needs: 'knowledge-base',
  arguments: {},
  input: KB_SEARCH_ARGUMENTS,
  output: KB_SEARCH_OUTPUT,
  text: SEARCH_TEXT,
  rest: REST,
  service: KbDoor,
  run: (door, input, context) =>
    door.service.search(input, kbConnection(context.headers, door.config, context.requestId)),
});
