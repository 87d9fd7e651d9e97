import { Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import type { AuthenticatedRequest } from '../../common/auth/auth.guard';
import { RESPONSE_FORMAT_ARGUMENT, toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { configToken, KbConfig } from '../../config';
import { kbConnection } from '../kb-connection';
import { KbSearchService } from '../kbsearch.service';

const TOOL = 'weknora_list_knowledge_bases';

const ARGUMENTS = z.looseObject({ response_format: RESPONSE_FORMAT_ARGUMENT });

const OUTPUT = z.looseObject({
  knowledge_bases: z.array(
    z.looseObject({ id: z.string(), name: z.string(), description: z.string(), document_count: z.number().int() }),
  ),
});

const DESCRIPTION =
  'List the knowledge bases this connection can search with weknora_search: id, name, description and ' +
  'document count. Use it to see what documents exist before searching, or to tell the user which ' +
  'knowledge bases to scope the connection to (X-WeKnora-KB-IDs). Next: weknora_search with a question.';

/** The knowledge bases of the connection's scope (beyond seed 003, as WeKnora's own client offers it). */
@McpController()
export class WeKnoraListKnowledgeBasesTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly service: KbSearchService,
    @Inject(configToken('kb')) private readonly config: KbConfig,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(OUTPUT),
    annotations: readOnlyTool('List knowledge bases'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    const headers = context.getRawRequest<AuthenticatedRequest>()?.headers;
    return this.runner.runWithoutNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, () =>
      this.service.listKnowledgeBases(kbConnection(headers, this.config)),
    );
  }
}
