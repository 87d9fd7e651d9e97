import { Get, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { PublicController } from '../common/http/route-prefixes';
import { McpDoor, McpInfo } from './mcp-door';

/**
 * `GET /api/agent-retrieval/v1/mcp/info`: the server and the caller's catalogue without an MCP handshake
 * (what a gateway or a registry shows before connecting). Authenticated like the MCP endpoint, and built
 * by the same rule as tools/list, so it lists exactly what this connection would be offered.
 */
@ApiTags('mcp')
@PublicController('mcp/info')
export class McpInfoController {
  constructor(private readonly door: McpDoor) {}

  @Get()
  @ApiOperation({ summary: "The MCP server's description and the caller's tools, prompts and resource templates" })
  @ApiOkResponse({ description: 'server, instructions, tools (as tools/list), prompts, resourceTemplates' })
  info(@Req() request: Request): Promise<McpInfo> {
    return this.door.info(request);
  }
}
