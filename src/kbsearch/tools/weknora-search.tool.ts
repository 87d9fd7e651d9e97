import { Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import type { AuthenticatedRequest } from '../../common/auth/auth.guard';
import { toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { configToken, KbConfig } from '../../config';
import { KB_SEARCH_ARGUMENTS } from '../kb-search.arguments';
import { kbConnection } from '../kb-connection';
import { SEARCH_TEXT } from '../kb-markdown';
import { KbSearchService } from '../kbsearch.service';

const TOOL = 'weknora_search';

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

const RESULT = z.looseObject({ id: z.string(), content: z.string(), score: z.number(), match_type: z.string() });

export const KB_SEARCH_OUTPUT = z.looseObject({
  query: z.string(),
  results: z.array(RESULT),
  total_count: z.number().int(),
  returned: z.number().int(),
  search_mode: z.string(),
});

/**
 * `weknora_search` (seed 003): arguments and text exactly as the seed defines them; the credential and
 * knowledge-base ids come from the connection's headers or the server config, never from arguments.
 */
@McpController()
export class WeKnoraSearchTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly service: KbSearchService,
    @Inject(configToken('kb')) private readonly config: KbConfig,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(KB_SEARCH_ARGUMENTS),
    outputSchema: toolOutput(KB_SEARCH_OUTPUT),
    annotations: readOnlyTool('Search knowledge bases'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    const headers = context.getRawRequest<AuthenticatedRequest>()?.headers;
    return this.runner.runWithoutNetwork(
      { tool: TOOL, schema: z.unknown(), args, context, text: SEARCH_TEXT },
      (input) => this.service.search(input, kbConnection(headers, this.config)),
    );
  }
}
