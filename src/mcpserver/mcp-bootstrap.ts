import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MCP_STRATEGY, McpStrategy } from '@rekog/mcp-nest';
import type { Application } from 'express';
import { setResourceMetadataResolver } from '../common/auth/auth.guard';
import { AppConfig } from '../config';
import { MCP_AUTH_SETTINGS, McpAuthSettings, resourceMetadataUrlFor } from './protected-resource';

/**
 * Connects the MCP strategy to the HTTP app (call after the body parsers, before listen): the
 * strategy binds every `@McpController` tool in the container and starts its transport; `app.close()`
 * closes it again. Also teaches the auth challenge where the MCP resource metadata lives.
 */
export async function startMcpServer(app: NestExpressApplication, config: AppConfig): Promise<void> {
  const settings: McpAuthSettings = { mode: config.auth.mode, publicBaseUrl: config.mcp.publicBaseUrl };
  (app.getHttpAdapter().getInstance() as Application).locals[MCP_AUTH_SETTINGS] = settings;
  setResourceMetadataResolver(resourceMetadataUrlFor);
  if (config.auth.mode === 'introspect' && !config.auth.issuerUrl) {
    new Logger('McpServer').warn('AUTH_ISSUER_URL is not set: the MCP resource metadata names no authorization server');
  }
  const strategy = app.get<McpStrategy>(MCP_STRATEGY);
  strategy.setHttpAdapter(app.getHttpAdapter());
  // Own pipeline for tools: the HTTP ValidationPipe/filters must not touch tool arguments or results.
  app.connectMicroservice({ strategy }, { inheritAppConfig: false });
  await app.startAllMicroservices();
}
