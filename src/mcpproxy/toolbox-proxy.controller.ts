import { Body, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PrivateController } from '../common/http/route-prefixes';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { OperatorProxyDoor } from './operator-proxy-door';
import { layeredArguments, ToolboxProxyResponse, ToolboxProxyService } from './toolbox-proxy.service';

@ApiTags('mcp proxy')
@PrivateController('tool-box')
export class ToolboxProxyController {
  constructor(
    private readonly proxy: ToolboxProxyService,
    private readonly door: OperatorProxyDoor,
  ) {}

  @Post(':box_id/proxy/:tool_id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Run a toolbox tool (OpenAPI operation) with layered {header, path, query, body} arguments',
  })
  @ApiBody({
    schema: {
      type: 'object',
      properties: {
        header: { type: 'object' },
        path: { type: 'object' },
        query: { type: 'object' },
        body: {},
      },
    },
  })
  execute(
    @Param('box_id') boxId: string,
    @Param('tool_id') toolId: string,
    @Body() body: unknown,
    @Req() request: AuthenticatedRequest,
  ): Promise<ToolboxProxyResponse> {
    const readInput = (raw: unknown) => layeredArguments(raw) as Record<string, unknown>;
    return this.door.call(boxId, toolId, body, request, readInput, (args) => this.proxy.execute(boxId, toolId, args));
  }
}
