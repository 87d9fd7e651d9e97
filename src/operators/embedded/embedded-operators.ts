import * as path from 'node:path';
import { PRIVATE_PREFIX } from '../../common/http/route-prefixes';
import { pathSegment } from '../../common/http/upstream-url';
import { Logger } from '@nestjs/common';
import { AppException } from '../../common/errors/app.exception';
import { OperatorsConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { OperatorErrors } from '../operator.errors';
import { OperatorPort } from '../operator.port';
import { LayeredArguments, McpToolDetail, McpToolResult, ToolDetail, ToolExecutionResult } from '../operator.types';
import { McpClientPool } from './mcp-client-pool';
import { ServerAnsweredError } from './mcp-results';
import { McpServerDefinition, readMcpServersFile } from './mcp-server-definition';
import { filesIn, networkFolders } from './network-folders';
import { ToolboxExecutor } from './toolbox-executor';
import { ToolboxOperation, ToolboxRegistry } from './toolbox-registry';

/**
 * Operators served by this process: MCP servers from mcp.json (stdio or Streamable HTTP, reached with the
 * MCP SDK client) and OpenAPI toolboxes from the network folders under KN_DIR.
 */
export class EmbeddedOperators extends OperatorPort {
  readonly kind = 'embedded';
  private readonly logger = new Logger('EmbeddedOperators');
  private readonly servers = new Map<string, McpServerDefinition>();
  private readonly pool: McpClientPool;
  private readonly toolboxes: ToolboxRegistry;
  private readonly executor: ToolboxExecutor;

  constructor(
    private readonly config: OperatorsConfig,
    knDir: string,
  ) {
    super();
    const folders = networkFolders(resolveFromRoot(knDir));
    this.registerServers(config.mcpServersFile, folders);
    this.pool = new McpClientPool(this.servers, {
      callTimeoutMs: config.mcpCallTimeoutMs,
      connectTimeoutMs: config.mcpConnectTimeoutMs,
      toolsCacheTtlMs: config.mcpToolsCacheTtlMs,
      reconnectBackoffMs: config.mcpReconnectBackoffMs,
    });
    this.toolboxes = new ToolboxRegistry(folders);
    this.executor = new ToolboxExecutor({
      allowedHosts: config.toolboxAllowedHosts,
      timeoutMs: config.toolboxTimeoutMs,
    });
  }

  getToolDetail(boxId: string, toolId: string): Promise<ToolDetail> {
    return Promise.resolve(this.operation(boxId, toolId).detail);
  }

  listMcpTools(mcpId: string): Promise<McpToolDetail[]> {
    this.requireServer(mcpId);
    return this.pool.listTools(mcpId);
  }

  async getMcpToolDetail(mcpId: string, toolName: string): Promise<McpToolDetail> {
    this.requireServer(mcpId);
    const find = (tools: McpToolDetail[]) => tools.find((tool) => tool.name === toolName);
    // A miss on a cached list may be a tool added since: look once more with a fresh list.
    const tool = find(await this.pool.listTools(mcpId)) ?? find(await this.pool.listTools(mcpId, true));
    if (!tool)
      throw new AppException(
        OperatorErrors.McpToolNotFound,
        `MCP server ${mcpId} has no tool named ${JSON.stringify(toolName.slice(0, 128))}`,
      );
    return tool;
  }

  async callMcpTool(mcpId: string, toolName: string, args: Record<string, unknown>): Promise<McpToolResult> {
    await this.getMcpToolDetail(mcpId, toolName);
    try {
      return await this.pool.callTool(mcpId, toolName, args);
    } catch (error) {
      if (error instanceof ServerAnsweredError) return error.toToolResult();
      throw error;
    }
  }

  executeTool(boxId: string, toolId: string, args: LayeredArguments): Promise<ToolExecutionResult> {
    return this.executor.execute(this.operation(boxId, toolId), args);
  }

  toolProxyUrl(boxId: string, toolId: string): string {
    return `${this.config.actionProxyBaseUrl}${PRIVATE_PREFIX}/tool-box/${pathSegment('box_id', boxId)}/proxy/${pathSegment('tool_id', toolId)}`;
  }

  override mcpServerIds(): string[] {
    return [...this.servers.keys()].sort();
  }

  override status(): Record<string, unknown> {
    return {
      adapter: this.kind,
      mcp_servers: this.pool.states(),
      toolboxes: this.toolboxes.boxIds(),
    };
  }

  override close(): Promise<void> {
    return this.pool.closeAll();
  }

  private operation(boxId: string, toolId: string): ToolboxOperation {
    const operation = this.toolboxes.get(boxId, toolId);
    if (!operation) {
      const what = this.toolboxes.hasBox(boxId) ? `toolbox ${boxId} has no operation ${toolId}` : `no toolbox ${boxId}`;
      throw new AppException(OperatorErrors.ToolboxToolNotFound, what.slice(0, 300));
    }
    return operation;
  }

  private requireServer(mcpId: string): void {
    if (!this.servers.has(mcpId)) {
      throw new AppException(
        OperatorErrors.McpServerNotFound,
        `no MCP server ${JSON.stringify(mcpId.slice(0, 128))} is configured`,
      );
    }
  }

  /** MCP_SERVERS_FILE when set (a bad file stops the boot), else every mcp.json in the network folders. */
  private registerServers(explicitFile: string | undefined, folders: string[]): void {
    const files = explicitFile
      ? [resolveFromRoot(explicitFile)]
      : folders.flatMap((folder) =>
          filesIn(folder, '.', ['.json']).filter((file) => path.basename(file) === 'mcp.json'),
        );
    for (const file of files) {
      let parsed;
      try {
        parsed = readMcpServersFile(file);
      } catch (error) {
        if (explicitFile) throw error;
        this.logger.warn((error as Error).message);
        continue;
      }
      parsed.problems.forEach((problem) => this.logger.warn(problem));
      for (const server of parsed.servers) {
        if (this.servers.has(server.id))
          this.logger.warn(`MCP server ${server.id} in ${file} ignored: already defined`);
        else this.servers.set(server.id, server);
      }
    }
    this.logger.log(`MCP servers: ${[...this.servers.keys()].join(', ') || 'none'}`);
  }
}
