import { DynamicModule, Module } from '@nestjs/common';
import { MCP_STRATEGY } from '@rekog/mcp-nest';
import { AppConfig } from '../config';
import { JsonRpcErrorShape } from './json-rpc-error-shape';
import { ConnectionOffer } from './connection-offer';
import { McpApproval } from './mcp-approval';
import { McpDoor } from './mcp-door';
import { ClientRequestBridge } from './mcp-nest.extension';
import { McpTasks } from './mcp-tasks';
import { createMcpEndpoint, securitySchemesFor } from './mcp-endpoint.factory';
import { MCP_SECURITY_SCHEMES } from './mcp-paths';
import { McpInfoController } from './mcp-info.controller';
import { NetworkCatalog } from './network-catalog';
import { ProtectedResourceController } from './protected-resource.controller';

/**
 * The MCP endpoint (SPEC §7): the HTTP controller at /api/agent-retrieval/v1/mcp, the RFC 9728 metadata
 * and the door that serves the capability catalog, the networks as resources and the prompts through it.
 */
@Module({})
export class McpServerModule {
  static forRoot(config: AppConfig): DynamicModule {
    const endpoint = createMcpEndpoint(config);
    return {
      module: McpServerModule,
      // The info route before the endpoint, whose `mcp/*path` route would otherwise take it.
      controllers: [McpInfoController, endpoint.controller, ProtectedResourceController],
      providers: [
        { provide: MCP_STRATEGY, useValue: endpoint.strategy },
        { provide: MCP_SECURITY_SCHEMES, useValue: securitySchemesFor(config) },
        { provide: ClientRequestBridge, useValue: endpoint.clientRequests },
        McpApproval,
        McpTasks,
        NetworkCatalog,
        ConnectionOffer,
        McpDoor,
        JsonRpcErrorShape,
      ],
      exports: [MCP_STRATEGY],
    };
  }
}
