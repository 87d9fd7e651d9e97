import { Logger } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createMcpTransport } from '../../common/mcp/mcp-client-transport';
import { McpToolDetail, McpToolResult } from '../operator.types';
import { McpServerDefinition } from './mcp-server-definition';
import { mcpCallError, mcpConnectError, mcpUnreachable, normalizeToolResult } from './mcp-results';

export interface McpPoolOptions {
  callTimeoutMs: number;
  connectTimeoutMs: number;
  toolsCacheTtlMs: number;
  /** After a server drops, calls fail fast for this long before a reconnect is tried. */
  reconnectBackoffMs: number;
}

interface Connection {
  client: Client;
  tools?: { list: McpToolDetail[]; fetchedAt: number };
}

const CLIENT_INFO = { name: 'agent-retrieval', version: '1.0.0' };
const MAX_TOOL_PAGES = 50;

/**
 * One lazily connected MCP SDK client per configured server. A server that exits or drops is reconnected
 * on a later call (after a short backoff, so a crash-looping server is not respawned on every request).
 */
export class McpClientPool {
  private readonly logger = new Logger('McpClientPool');
  private readonly connections = new Map<string, Promise<Connection>>();
  private readonly downUntil = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly servers: ReadonlyMap<string, McpServerDefinition>,
    private readonly options: McpPoolOptions,
  ) {}

  async listTools(id: string, fresh = false): Promise<McpToolDetail[]> {
    const connection = await this.connection(id);
    const cached = connection.tools;
    if (!fresh && cached && Date.now() - cached.fetchedAt < this.options.toolsCacheTtlMs) return cached.list;
    const list: McpToolDetail[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
      const result = await this.guard(id, () =>
        connection.client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.callTimeoutMs }),
      );
      for (const tool of result.tools) {
        list.push({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as Record<string, unknown>,
          ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
        });
      }
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    connection.tools = { list, fetchedAt: Date.now() };
    return list;
  }

  async callTool(id: string, name: string, args: Record<string, unknown>): Promise<McpToolResult> {
    const connection = await this.connection(id);
    const result = await this.guard(id, () =>
      connection.client.callTool({ name, arguments: args }, undefined, { timeout: this.options.callTimeoutMs }),
    );
    return normalizeToolResult(result);
  }

  /** Per server: `connected`, `idle` (not connected yet) or `backoff` (dropped, reconnecting on a later call). */
  states(): Record<string, string> {
    const now = Date.now();
    return Object.fromEntries(
      [...this.servers.keys()].map((id) => {
        if (this.connections.has(id)) return [id, 'connected'];
        return [id, (this.downUntil.get(id) ?? 0) > now ? 'backoff' : 'idle'];
      }),
    );
  }

  /** Closes every client (stdio servers are stopped); called on application shutdown. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const pending = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      pending.map(async (connection) => {
        try {
          await (await connection).client.close();
        } catch {
          // already gone
        }
      }),
    );
  }

  private async guard<T>(id: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw mcpCallError(id, error);
    }
  }

  private connection(id: string): Promise<Connection> {
    const existing = this.connections.get(id);
    if (existing) return existing;
    const definition = this.servers.get(id);
    if (!definition || this.closing) return Promise.reject(mcpUnreachable(id, 'not available'));
    const until = this.downUntil.get(id) ?? 0;
    if (Date.now() < until) {
      return Promise.reject(mcpUnreachable(id, `stopped; reconnecting in ${until - Date.now()} ms`));
    }
    const opening: Promise<Connection> = this.open(definition, () => this.markDown(id, opening)).catch(
      (error: unknown) => {
        this.markDown(id, opening);
        throw mcpCallError(id, error);
      },
    );
    this.connections.set(id, opening);
    return opening;
  }

  private async open(definition: McpServerDefinition, onClose: () => void): Promise<Connection> {
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    client.onclose = onClose;
    try {
      await client.connect(this.transport(definition), { timeout: this.options.connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw mcpConnectError(definition.id, error);
    }
    this.logger.log(`connected to MCP server ${definition.id} (${definition.kind})`);
    return { client };
  }

  private markDown(id: string, connection: Promise<Connection>): void {
    if (this.connections.get(id) !== connection) return;
    this.connections.delete(id);
    if (this.closing) return;
    this.downUntil.set(id, Date.now() + this.options.reconnectBackoffMs);
    this.logger.warn(
      `MCP server ${id} disconnected; reconnecting on a call after ${this.options.reconnectBackoffMs} ms`,
    );
  }

  private transport(definition: McpServerDefinition) {
    return createMcpTransport(definition, {
      onStderr: (text) => this.logger.debug(`[${definition.id}] ${text.trim().slice(0, 500)}`),
    });
  }
}
