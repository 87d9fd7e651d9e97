import { isRecord } from '../../common/http/json-inspection';
import { FunctionTool } from '../chat.types';
import type { ChatTool, ToolOutcome } from './tool-registry';
import { termsOf } from './tool-offer';
import type { ToolSet } from './tool-set';

export const FIND_TOOLS = 'find_tools';

/** Tools one find_tools call lists and offers. */
const MATCHES = 5;
/** Characters of the query read; keywords, not a document. */
const QUERY_CHARS = 500;
/** Names listed when nothing matches. */
const LISTED_NAMES = 60;
/** Characters of a found tool's description in the answer: the definition itself comes with the offer. */
const SUMMARY_CHARS = 200;

/** The meta-tool's definition: the same in every request, so it costs the same few hundred bytes each time. */
export const FIND_TOOLS_DEFINITION: FunctionTool = {
  type: 'function',
  function: {
    name: FIND_TOOLS,
    description:
      'Finds more of this service’s tools. Only some of its tools are offered at first; give keywords for ' +
      'what you need to do (any language) and the best matching tools are listed with what they do, and ' +
      'offered from your next call on.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Keywords, e.g. "prescription patient" or "重启 部署"' } },
      required: ['query'],
    },
  },
};

/**
 * find_tools for one request: runs here, reads only the request's own tool set, and reveals what it
 * finds in it. It is no catalog capability: only the chat door offers a subset of the tools.
 */
export function findToolsTool(tools: () => ToolSet): ChatTool {
  return {
    name: FIND_TOOLS,
    definition: FIND_TOOLS_DEFINITION,
    kind: 'meta',
    mode: 'auto',
    readOnly: true,
    run: async (args) => findTools(tools(), args),
  };
}

function findTools(tools: ToolSet, args: unknown): ToolOutcome {
  const query = isRecord(args) && typeof args.query === 'string' ? args.query.slice(0, QUERY_CHARS).trim() : '';
  if (query === '') return { success: false, content: 'find_tools needs a query: keywords for what you need to do.' };
  const found = tools.search(termsOf(query), MATCHES);
  if (found.length === 0) {
    const names = tools.unoffered();
    const listed = names.slice(0, LISTED_NAMES).join(', ') + (names.length > LISTED_NAMES ? ', …' : '');
    const rest = names.length > 0 ? ` Tools not offered yet: ${listed}.` : ' Every tool is offered already.';
    return { success: true, content: `No tool matches "${query}".${rest}` };
  }
  tools.reveal(found.map(({ tool }) => tool.name));
  const lines = found.map(({ tool, offered }) => {
    const summary = (tool.definition.function.description ?? '').slice(0, SUMMARY_CHARS);
    return `- ${tool.name}${offered ? ' (already offered)' : ''}: ${summary}`;
  });
  return { success: true, content: ['Offered from your next call on:', ...lines].join('\n') };
}
