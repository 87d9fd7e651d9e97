import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MCP_STRATEGY, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { createMcpEndpoint } from './mcp-endpoint.factory';
import { startMcpServer } from './mcp-bootstrap';
import { MCP_PATH } from './mcp-paths';
import { testConfig } from '../../test/support/unit/config';

/** Stands in for another team's feature (e.g. code graph-RAG): its own module, service and tool class. */
@Injectable()
class CallChainService {
  chain(symbol: string): string[] {
    return [`${symbol}.caller`, symbol];
  }
}

@McpController()
class CallChainTool {
  constructor(private readonly service: CallChainService) {}

  @Tool({ name: 'ci_call_chain', description: 'Call chain of a symbol', parameters: z.object({ symbol: z.string() }) })
  call(@Payload() args: { symbol: string }) {
    return { content: [{ type: 'text', text: this.service.chain(args.symbol).join(' -> ') }] };
  }
}

@Module({ controllers: [CallChainTool], providers: [CallChainService] })
class CodeGraphFeatureModule {}

describe('MCP tool discovery', () => {
  let app: NestExpressApplication;

  afterEach(async () => {
    await app?.close();
  });

  it('serves @McpController tools declared in any imported feature module', async () => {
    const config = testConfig({ HOST: '127.0.0.1', PORT: '0' });
    const endpoint = createMcpEndpoint(config);
    @Module({
      imports: [CodeGraphFeatureModule],
      controllers: [endpoint.controller],
      providers: [{ provide: MCP_STRATEGY, useValue: endpoint.strategy }],
    })
    class RootModule {}
    app = await NestFactory.create<NestExpressApplication>(RootModule, { logger: false });
    await startMcpServer(app, config);
    await app.listen(0, '127.0.0.1');
    const client = new Client({ name: 'discovery', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${await app.getUrl()}${MCP_PATH}`)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ci_call_chain']);
    const result = await client.callTool({ name: 'ci_call_chain', arguments: { symbol: 'main' } });
    expect(result.content).toEqual([{ type: 'text', text: 'main.caller -> main' }]);
    await client.close();
  });
});
