import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { McpToolingModule } from '../common/mcp/mcp-tooling.module';
import { KnSearchController } from './knsearch.controller';
import { KnSearchService } from './knsearch.service';
import { OntologyJobsController } from './ontology-jobs.controller';
import { KnSchemaSearchTool } from './tools/kn-schema-search.tool';
import { KnSearchTool } from './tools/kn-search.tool';
import { GetKnDetailTool, ListKnowledgeNetworksTool } from './tools/network-discovery.tools';
import { QueryInstanceSubgraphTool } from './tools/query-instance-subgraph.tool';
import { QueryObjectInstanceTool } from './tools/query-object-instance.tool';
import { ResolveLogicPropertiesTool } from './tools/resolve-logic-properties.tool';
import { FindSkillsTool } from './tools/find-skills.tool';
import { SkillsService } from './skills.service';
import { SearchSchemaTool } from './tools/search-schema.tool';

/** Knowledge-network search (SPEC §3, seed 002): the REST routes and the MCP tools over one service. */
@Module({
  imports: [McpToolingModule],
  controllers: [
    ...withPrivateTwins(KnSearchController),
    OntologyJobsController,
    // Tools are listed in this order: discovery first, then search, instances, subgraphs, logic properties, skills.
    ListKnowledgeNetworksTool,
    GetKnDetailTool,
    SearchSchemaTool,
    KnSchemaSearchTool,
    KnSearchTool,
    QueryObjectInstanceTool,
    QueryInstanceSubgraphTool,
    ResolveLogicPropertiesTool,
    FindSkillsTool,
  ],
  providers: [KnSearchService, SkillsService],
  exports: [KnSearchService, SkillsService],
})
export class KnSearchModule {}
