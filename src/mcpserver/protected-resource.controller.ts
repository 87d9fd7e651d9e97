import { Get, Header, Inject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { OpenController } from '../common/http/route-prefixes';
import { AuthConfig, configToken, McpConfig } from '../config';
import { PROTECTED_RESOURCE_PATH, PROTECTED_RESOURCE_ROOT } from './mcp-paths';
import { protectedResourceMetadata, ProtectedResourceMetadata } from './protected-resource';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) so MCP clients can discover the authorization
 * server after a 401. Served only when tokens are introspected; otherwise 404 like any unknown path.
 */
@ApiTags('mcp')
@OpenController(PROTECTED_RESOURCE_PATH, PROTECTED_RESOURCE_ROOT)
export class ProtectedResourceController {
  constructor(
    @Inject(configToken('auth')) private readonly auth: AuthConfig,
    @Inject(configToken('mcp')) private readonly mcp: McpConfig,
  ) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'OAuth protected-resource metadata of the MCP endpoint (AUTH_MODE=introspect)' })
  @ApiOkResponse({ description: 'RFC 9728 metadata document' })
  metadata(@Req() request: Request): ProtectedResourceMetadata {
    if (this.auth.mode !== 'introspect') {
      const target = `GET ${request.path.slice(0, 200)}`;
      throw new AppException(PublicErrors.NotFound, new LocalizedDetails('http.noRoute', { target }));
    }
    return protectedResourceMetadata(request, this.auth, this.mcp);
  }
}
