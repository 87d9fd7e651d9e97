import { Body, Delete, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { z } from 'zod';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { ApiErrorResponses } from '../common/errors/error-body.dto';
import { PrivateController } from '../common/http/route-prefixes';
import { ApiKeyView, CreatedApiKey } from './api-key.view';
import { CREATE_API_KEY_BODY } from './api-keys.schemas';
import { ApiKeysService } from './api-keys.service';
import { requestScope } from '../capabilities/call-scope';
import { AuditLog } from '../governance/audit-log';

type SchemaObject = Extract<Parameters<typeof ApiBody>[0], { schema: unknown }>['schema'];

/**
 * API key administration (SPEC §12), on the private prefix only: in-cluster callers (the platform, an
 * operator's tooling) create, list and revoke the keys agents use as Bearer tokens on the public routes.
 */
@ApiTags('api keys (admin)')
@ApiErrorResponses(400, 404, 503)
@PrivateController('admin/api-keys')
export class ApiKeysController {
  constructor(
    private readonly service: ApiKeysService,
    private readonly audit: AuditLog,
  ) {}

  /** Every administration call is one audit line, like a capability call (argument names and sizes only). */
  private audited<T>(action: string, request: AuthenticatedRequest, args: unknown, run: () => Promise<T>): Promise<T> {
    const { principal, requestId } = requestScope('rest', request, 'en-US');
    return this.audit.around(
      { principal, door: 'rest', capability: `admin.api_keys.${action}`, requestId, arguments: args },
      run,
    );
  }

  @Post()
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Create a key; the answer holds the full key, shown this once and never again' })
  @ApiBody({ schema: z.toJSONSchema(CREATE_API_KEY_BODY, { io: 'input' }) as SchemaObject })
  create(@Body() body: unknown, @Req() request: AuthenticatedRequest): Promise<CreatedApiKey> {
    return this.audited('create', request, body, () => this.service.create(body, request.account?.id));
  }

  @Get()
  @ApiOperation({ summary: 'List keys (optionally one account_id), without secrets or hashes' })
  list(@Query() query: unknown, @Req() request: AuthenticatedRequest): Promise<{ keys: ApiKeyView[] }> {
    return this.audited('list', request, query, async () => ({ keys: await this.service.list(query) }));
  }

  @Get(':key_id')
  @ApiOperation({ summary: 'One key, without its secret or hash' })
  get(@Param('key_id') keyId: string, @Req() request: AuthenticatedRequest): Promise<ApiKeyView> {
    return this.audited('get', request, { key_id: keyId }, () => this.service.get(keyId));
  }

  @Delete(':key_id')
  @ApiOperation({ summary: 'Revoke a key: refused on every replica within 5 s; revoking again changes nothing' })
  revoke(@Param('key_id') keyId: string, @Req() request: AuthenticatedRequest): Promise<ApiKeyView> {
    return this.audited('revoke', request, { key_id: keyId }, () => this.service.revoke(keyId));
  }
}
