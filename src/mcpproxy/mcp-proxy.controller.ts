import { Body, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PrivateController } from '../common/http/route-prefixes';
import { McpToolResult } from '../operators/operator.types';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { McpProxyService, toolArguments } from './mcp-proxy.service';
import { OperatorProxyDoor } from './operator-proxy-door';

@ApiTags('mcp proxy')
@PrivateController('mcp/proxy')
export class McpProxyController {
  constructor(
    private readonly proxy: McpProxyService,
    private readonly door: OperatorProxyDoor,
  ) {}

  @Post(':mcp_id/tools/:tool_name/call')
  @HttpCode(200)
  @ApiOperation({ summary: 'Call an MCP tool with flat JSON arguments; the MCP result is passed through' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  call(
    @Param('mcp_id') mcpId: string,
    @Param('tool_name') toolName: string,
    @Body() body: unknown,
    @Req() request: AuthenticatedRequest,
  ): Promise<McpToolResult> {
    return this.door.call(mcpId, toolName, body, request, toolArguments, (args) =>
      this.proxy.call(mcpId, toolName, args),
    );
  }
}
