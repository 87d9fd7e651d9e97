import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { createMcpTransport } from '../../common/mcp/mcp-client-transport';
import { CkbConfig } from '../../config';
import { CkbCallError, CkbPort } from '../ckb.port';
import { CkbFailureReason } from '../ckb.types';
import { mcpErrorText, safeErrorText, toolResultValue } from './ckb-error-text';

type Operation<T> = (client: Client, options: RequestOptions) => Promise<T>;

/**
 * CKB over MCP (SDK 1.x client), stdio (`CKB_COMMAND`) or Streamable HTTP (`CKB_URL`). The session is
 * opened lazily on the first call, so a process that never needs CKB (cooldown, disabled) never starts
 * it. Every call — connecting included — runs under one deadline of CKB_TIMEOUT_MS.
 */
export class McpCkbClient extends CkbPort {
  private session?: { client: Client; ready: Promise<Client> };
  private readonly closing = new Set<Promise<void>>();

  constructor(private readonly config: CkbConfig) {
    super();
  }

  async listTools(): Promise<string[]> {
    const result = await this.withDeadline(
      (client, options) => client.listTools(undefined, options),
      'health_check_failed',
    );
    return result.tools.map((tool) => tool.name);
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<unknown> {
    const result = await this.withDeadline(
      (client, options) => client.callTool({ name, arguments: args }, undefined, options),
      'mcp_error',
    );
    const value = toolResultValue(result.content);
    if (result.isError) {
      throw new CkbCallError('mcp_error', `CKB tool ${name} failed: ${safeErrorText(String(value ?? 'no detail'))}`);
    }
    return value;
  }

  /** Ends the current session and waits for every session being closed (stdio: the process exits). */
  async close(): Promise<void> {
    this.dropSession();
    await Promise.all([...this.closing]);
  }

  /** Detaches the session at once; closing it (up to seconds for a hung stdio server) goes on in the background. */
  private dropSession(): void {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    const closed: Promise<void> = session.client.close().catch(() => undefined);
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
  }

  private async withDeadline<T>(operation: Operation<T>, failure: CkbFailureReason): Promise<T> {
    const timeoutMs = this.config.timeoutMs;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new CkbCallError('connection_timeout', `Connection timeout after ${timeoutMs}ms`));
      }, timeoutMs);
    });
    try {
      return await Promise.race([this.attempt(operation, failure, abort.signal), deadline]);
    } catch (error) {
      // A server that missed its deadline may be hung: drop the session; the next call opens a new one.
      if (error instanceof CkbCallError && error.reason === 'connection_timeout') this.dropSession();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async attempt<T>(operation: Operation<T>, failure: CkbFailureReason, signal: AbortSignal): Promise<T> {
    let client: Client;
    try {
      client = await this.connect();
    } catch (error) {
      throw new CkbCallError('health_check_failed', `CKB connection failed: ${safeErrorText(error)}`);
    }
    try {
      // The SDK's own timeout stays above ours so the deadline above is the one that fires.
      return await operation(client, { signal, timeout: this.config.timeoutMs + 1000 });
    } catch (error) {
      throw new CkbCallError(failure, safeErrorText(mcpErrorText(error)));
    }
  }

  private connect(): Promise<Client> {
    if (this.session) return this.session.ready;
    const client = new Client({ name: 'agent-retrieval', version: '0.1.0' });
    const ready = client.connect(this.transport()).then(() => client);
    const session = { client, ready };
    this.session = session;
    client.onclose = () => {
      if (this.session === session) this.session = undefined;
    };
    ready.catch(() => {
      if (this.session === session) this.session = undefined;
      void client.close().catch(() => undefined);
    });
    return ready;
  }

  private transport() {
    const server = this.config.server;
    if (!server) throw new Error('no CKB server is configured (set CKB_COMMAND or CKB_URL)');
    // No env, headers or cwd of its own: the child gets the SDK's safe defaults only; stderr is discarded.
    return createMcpTransport(server);
  }
}
