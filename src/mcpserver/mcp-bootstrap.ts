import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MCP_STRATEGY, McpStrategy } from '@rekog/mcp-nest';
import { AppConfig } from '../config';

/**
 * Connects the MCP strategy to the HTTP app (call after the body parsers, before listen): the strategy
 * starts its transport, which serves the endpoint controller's route; `app.close()` closes it again.
 */
export async function startMcpServer(app: NestExpressApplication, config: AppConfig): Promise<void> {
  if (config.auth.mode === 'introspect' && !config.auth.issuerUrl) {
    new Logger('McpServer').warn('AUTH_ISSUER_URL is not set: the MCP resource metadata names no authorization server');
  }
  const strategy = app.get<McpStrategy>(MCP_STRATEGY);
  strategy.setHttpAdapter(app.getHttpAdapter());
  // Own pipeline for tools: the HTTP ValidationPipe/filters must not touch tool arguments or results.
  app.connectMicroservice({ strategy }, { inheritAppConfig: false });
  await app.startAllMicroservices();
}
