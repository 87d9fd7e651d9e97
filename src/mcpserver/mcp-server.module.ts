import { DynamicModule, Module } from '@nestjs/common';
import { MCP_STRATEGY } from '@rekog/mcp-nest';
import { AppConfig } from '../config';
import { JsonRpcErrorShape } from './json-rpc-error-shape';
import { createMcpEndpoint } from './mcp-endpoint.factory';
import { NetworkCatalog } from './network-catalog';
import { NetworkPrompts } from './network-prompts.controller';
import { NetworkResources } from './network-resources.controller';
import { ProtectedResourceController } from './protected-resource.controller';

/**
 * The MCP endpoint (SPEC §7): the HTTP controller at /api/agent-retrieval/v1/mcp, the RFC 9728 metadata
 * and the strategy that serves every `@McpController` tool in the application, whichever module lists it.
 */
@Module({})
export class McpServerModule {
  static forRoot(config: AppConfig): DynamicModule {
    const endpoint = createMcpEndpoint(config);
    return {
      module: McpServerModule,
      controllers: [endpoint.controller, ProtectedResourceController, NetworkResources, NetworkPrompts],
      providers: [{ provide: MCP_STRATEGY, useValue: endpoint.strategy }, NetworkCatalog, JsonRpcErrorShape],
      exports: [MCP_STRATEGY],
    };
  }
}
