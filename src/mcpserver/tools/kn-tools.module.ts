import { Module } from '@nestjs/common';
import { ActionRecallModule } from '../../actionrecall/actionrecall.module';
import { KnSearchModule } from '../../knsearch/knsearch.module';
import { McpToolingModule } from '../mcp-tooling.module';
import { GetActionInfoTool } from './get-action-info.tool';
import { KnSchemaSearchTool } from './kn-schema-search.tool';
import { KnSearchTool } from './kn-search.tool';
import { QueryInstanceSubgraphTool } from './query-instance-subgraph.tool';
import { QueryObjectInstanceTool } from './query-object-instance.tool';
import { ResolveLogicPropertiesTool } from './resolve-logic-properties.tool';

/** The six knowledge-network tools (seed 002); each wraps one REST service method unchanged. */
@Module({
  imports: [McpToolingModule, KnSearchModule, ActionRecallModule],
  controllers: [
    KnSchemaSearchTool,
    KnSearchTool,
    QueryObjectInstanceTool,
    QueryInstanceSubgraphTool,
    ResolveLogicPropertiesTool,
    GetActionInfoTool,
  ],
})
export class KnToolsModule {}
