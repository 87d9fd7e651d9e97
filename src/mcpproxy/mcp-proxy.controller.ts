import { Body, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PrivateController } from '../common/http/route-prefixes';
import { McpToolResult } from '../operators/operator.types';
import { McpProxyService } from './mcp-proxy.service';

@ApiTags('mcp proxy')
@PrivateController('mcp/proxy')
export class McpProxyController {
  constructor(private readonly proxy: McpProxyService) {}

  @Post(':mcp_id/tools/:tool_name/call')
  @HttpCode(200)
  @ApiOperation({ summary: 'Call an MCP tool with flat JSON arguments; the MCP result is passed through' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  call(
    @Param('mcp_id') mcpId: string,
    @Param('tool_name') toolName: string,
    @Body() body: unknown,
  ): Promise<McpToolResult> {
    return this.proxy.call(mcpId, toolName, body);
  }
}
