import { applyDecorators, Body, Get, Headers, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';

type SchemaObject = Extract<Parameters<typeof ApiBody>[0], { schema: unknown }>['schema'];
import { z } from 'zod';
import { ApiController } from '../common/http/route-prefixes';
import { configToken, KbConfig } from '../config';
import { KB_SEARCH_ARGUMENTS } from './kb-search.arguments';
import { kbConnection } from './kb-connection';
import { KbSearchResponse, KnowledgeBaseList } from './kb.types';
import { KbSearchService } from './kbsearch.service';

const ScopeHeaders = (): MethodDecorator =>
  applyDecorators(
    ApiHeader({ name: 'X-WeKnora-Api-Key', required: false, description: 'WeKnora API key (else WEKNORA_API_KEY)' }),
    ApiHeader({
      name: 'X-WeKnora-KB-IDs',
      required: false,
      description: 'Comma-separated knowledge-base ids to search (else WEKNORA_KB_IDS, else all)',
    }),
  );

/** REST twins of the knowledge-base tools (SPEC §3, §9); the body is validated by the tool's own schema. */
@ApiTags('knowledge base')
@ApiController('kb')
export class KbSearchController {
  constructor(
    private readonly service: KbSearchService,
    @Inject(configToken('kb')) private readonly config: KbConfig,
  ) {}

  @Post('search')
  @HttpCode(200)
  @ApiOperation({ summary: 'Search the knowledge bases (weknora_search): passages ranked by relevance' })
  @ApiBody({ schema: z.toJSONSchema(KB_SEARCH_ARGUMENTS, { io: 'input' }) as SchemaObject })
  @ScopeHeaders()
  search(@Body() body: unknown, @Headers() headers: Record<string, string>): Promise<KbSearchResponse> {
    return this.service.search(body, kbConnection(headers, this.config));
  }

  @Get('knowledge-bases')
  @ApiOperation({ summary: 'The knowledge bases this connection can search (weknora_list_knowledge_bases)' })
  @ScopeHeaders()
  knowledgeBases(@Headers() headers: Record<string, string>): Promise<KnowledgeBaseList> {
    return this.service.listKnowledgeBases(kbConnection(headers, this.config));
  }
}
