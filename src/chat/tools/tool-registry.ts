import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedRequest } from '../../common/auth/auth.guard';
import { configToken, ChatConfig } from '../../config';
import { OperatorPort } from '../../operators/operator.port';
import { FunctionTool } from '../chat.types';
import { runWorkspaceTool, WORKSPACE_TOOLS } from '../workspace/workspace-tools';
import { WorkspaceSession } from '../workspace/workspaces';
import { ServerTools } from './server-tools';
import { ToolMode, ToolPolicy } from './tool-policy';

/** What a tool call gave back, as the model will read it. */
export interface ToolOutcome {
  success: boolean;
  content: string;
}

export type ToolKind = 'server' | 'mcp' | 'workspace' | 'client';

/** A tool as one chat request sees it: its name for the model, who runs it and whether it runs unasked. */
export interface ChatTool {
  name: string;
  definition: FunctionTool;
  kind: ToolKind;
  /** `client`: the client runs it; `confirm`: returned to the client like a client tool; `auto`: run here. */
  mode: 'auto' | 'confirm' | 'client';
  readOnly: boolean;
  run?(args: Record<string, unknown>): Promise<ToolOutcome>;
}

/** The tools of one request, by the name the model calls them. */
export class ToolSet {
  static readonly EMPTY = new ToolSet(new Map());

  constructor(private readonly tools: ReadonlyMap<string, ChatTool>) {}

  get(name: string): ChatTool | undefined {
    return this.tools.get(name);
  }

  definitions(): FunctionTool[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  get size(): number {
    return this.tools.size;
  }
}

export interface ToolScope {
  /** The chat request, as the connection every server tool reads (auth, X-Kn-ID, language, X-WeKnora-*). */
  request: AuthenticatedRequest;
  accountType: string;
  workspace: WorkspaceSession;
  clientTools: FunctionTool[];
}

/**
 * Merges, for each request, this service's tools, the configured MCP servers' tools, the session's
 * workspace tools and the client's tools. Collisions are settled the same way every time: a client
 * tool wins and hides the server tool of that name for the request; an MCP server tool whose name is
 * taken is offered as `<server>__<tool>`. The policy drops unavailable tools and marks confirm ones.
 */
@Injectable()
export class ToolRegistry {
  private readonly logger = new Logger('ChatTools');
  private readonly policy: ToolPolicy;

  constructor(
    private readonly serverTools: ServerTools,
    private readonly operators: OperatorPort,
    @Inject(configToken('chat')) _config: ChatConfig,
  ) {
    this.policy = ToolPolicy.load(undefined);
  }

  async forRequest(scope: ToolScope): Promise<ToolSet> {
    const tools = new Map<string, ChatTool>();
    const add = (tool: Omit<ChatTool, 'mode'>, mode: ToolMode): void => {
      if (mode !== 'unavailable') tools.set(tool.name, { ...tool, mode });
    };
    for (const tool of this.serverTools.list()) {
      const name = tool.definition.function.name;
      add(
        {
          name,
          definition: tool.definition,
          kind: 'server',
          readOnly: tool.readOnly,
          run: async (args) => {
            const result = await tool.call(args, scope.request);
            return { success: result.isError !== true, content: result.content.map((block) => block.text).join('\n') };
          },
        },
        this.policy.mode(scope.accountType, name, tool.readOnly),
      );
    }
    for (const definition of WORKSPACE_TOOLS) {
      const name = definition.function.name;
      add(
        {
          name,
          definition,
          kind: 'workspace',
          readOnly: name !== 'write_file',
          run: async (args) => ({
            success: true,
            content: await runWorkspaceTool(await scope.workspace.workspace(), name, args),
          }),
        },
        this.policy.mode(scope.accountType, name, name !== 'write_file'),
      );
    }
    for (const tool of await this.mcpServerTools(new Set(tools.keys()))) {
      add(tool, this.policy.mode(scope.accountType, tool.name, tool.readOnly));
    }
    for (const definition of scope.clientTools) {
      const name = definition.function.name;
      tools.set(name, { name, definition, kind: 'client', mode: 'client', readOnly: false });
    }
    return new ToolSet(tools);
  }

  /** Every configured MCP server's tools, servers and tools in name order; a server that fails is left out. */
  private async mcpServerTools(taken: Set<string>): Promise<Omit<ChatTool, 'mode'>[]> {
    const found: Omit<ChatTool, 'mode'>[] = [];
    for (const mcpId of this.operators.mcpServerIds()) {
      let listed;
      try {
        listed = await this.operators.listMcpTools(mcpId);
      } catch (error) {
        this.logger.warn(`MCP server "${mcpId}" left out of chat tools: ${(error as Error).message}`);
        continue;
      }
      for (const detail of [...listed].sort((a, b) => a.name.localeCompare(b.name))) {
        const name = taken.has(detail.name) ? `${mcpId}__${detail.name}` : detail.name;
        taken.add(name);
        found.push({
          name,
          definition: {
            type: 'function',
            function: { name, description: detail.description, parameters: detail.inputSchema },
          },
          kind: 'mcp',
          readOnly: detail.annotations?.readOnlyHint === true,
          run: async (args) => {
            const result = await this.operators.callMcpTool(mcpId, detail.name, args);
            return { success: result.isError !== true, content: mcpText(result.content) };
          },
        });
      }
    }
    return found;
  }
}

function mcpText(content: unknown[]): string {
  return content
    .map((block) => {
      const item = block as { type?: string; text?: unknown };
      return item.type === 'text' && typeof item.text === 'string' ? item.text : JSON.stringify(block);
    })
    .join('\n');
}
