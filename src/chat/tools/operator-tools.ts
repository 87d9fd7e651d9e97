import { Injectable, Logger } from '@nestjs/common';
import { z } from 'zod';
import { operatorToolName, ActionBoundTools } from '../../actionrecall/action-bound-tools';
import { CapabilityDefinition, OwnText } from '../../capabilities/capability';
import { bindCapability, Capability } from '../../capabilities/capability-catalog';
import { toolArguments } from '../../mcpproxy/mcp-proxy.service';
import { OperatorPort } from '../../operators/operator.port';
import { McpToolDetail, McpToolResult } from '../../operators/operator.types';

/** The model reads an MCP result's text blocks; other blocks as their JSON. */
const MCP_TEXT: OwnText = {
  result: (value) => [mcpText((value as unknown as McpToolResult).content ?? [])],
  failure: (_error, body) => JSON.stringify(body),
};

/**
 * The tools of the configured MCP servers that chat and the tool API may offer (SPEC §10, §12): named
 * `<server>__<tool>`, never one that an action type is bound to (those run only through execute_action),
 * and — as operator tools — offered only where the access policy names them. Each becomes a capability
 * run through the same gateway as this service's own.
 */
@Injectable()
export class OperatorTools {
  private readonly logger = new Logger('OperatorTools');

  constructor(
    private readonly operators: OperatorPort,
    private readonly bound: ActionBoundTools,
  ) {}

  /** Every offerable operator tool, servers and tools in name order; a server that fails is left out. */
  async list(): Promise<Capability[]> {
    const serverIds = this.operators.mcpServerIds();
    if (serverIds.length === 0) return [];
    let bound: ReadonlySet<string>;
    try {
      bound = await this.bound.names();
    } catch (error) {
      // Fail closed: without knowing which tools actions own, no operator tool is offered raw.
      this.logger.warn(
        `operator tools left out of chat: the action bindings cannot be read (${(error as Error).message})`,
      );
      return [];
    }
    const found: Capability[] = [];
    for (const mcpId of [...serverIds].sort()) {
      let listed: McpToolDetail[];
      try {
        listed = await this.operators.listMcpTools(mcpId);
      } catch (error) {
        this.logger.warn(`MCP server "${mcpId}" left out of chat tools: ${(error as Error).message}`);
        continue;
      }
      for (const detail of [...listed].sort((a, b) => a.name.localeCompare(b.name))) {
        const name = operatorToolName(mcpId, detail.name);
        if (!bound.has(name)) found.push(bindCapability(this.definition(mcpId, name, detail), this.operators, true));
      }
    }
    return found;
  }

  private definition(mcpId: string, name: string, detail: McpToolDetail): CapabilityDefinition {
    const hints = detail.annotations ?? {};
    const text = { 'en-US': detail.description ?? '', 'zh-Hans': detail.description ?? '' };
    return {
      name,
      title: { 'en-US': name, 'zh-Hans': name },
      description: text,
      governance: 'act',
      // The server's hints are its own claims: shown to the model, never what the policy's @read_only trusts.
      annotations: {
        readOnly: hints.readOnlyHint === true,
        destructive: hints.destructiveHint !== false,
        idempotent: hints.idempotentHint === true,
        openWorld: true,
      },
      network: 'none',
      input: z.looseObject({}),
      inputJsonSchema: detail.inputSchema,
      output: z.looseObject({}),
      // Passed on as the model wrote them; the operator port checks them against inputSchema before the call.
      readInput: toolArguments,
      doors: ['chat', 'tool-api'],
      text: MCP_TEXT,
      service: OperatorPort,
      run: (operators, input) =>
        (operators as OperatorPort).callMcpTool(mcpId, detail.name, input as Record<string, unknown>),
    };
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
