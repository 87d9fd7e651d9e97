import { Injectable, Logger } from '@nestjs/common';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { ActionSource } from '../knowledge-network/knowledge-network.types';
import { OPERATOR_SEPARATOR } from '../governance/access-policy';

// Networks change rarely (a reload, a KWeaver edit); a minute keeps a remote backend from being asked per request.
const TTL_MS = 60_000;

/** `<mcp_id>__<tool_name>` or `<box_id>__<tool_id>`: how an operator tool is named at every door. */
export function operatorToolName(server: string, tool: string): string {
  return `${server}${OPERATOR_SEPARATOR}${tool}`;
}

/** The operator tool an action source names, or undefined when it names none. */
export function boundToolName(source: ActionSource | undefined): string | undefined {
  if (source?.type === 'mcp' && source.mcp_id && source.tool_name)
    return operatorToolName(source.mcp_id, source.tool_name);
  if (source?.type === 'tool' && source.box_id && source.tool_id)
    return operatorToolName(source.box_id, source.tool_id);
  return undefined;
}

/**
 * The operator tools some action type of a served network is bound to (its Tool Configuration): they run
 * only through execute_action, never raw (SPEC §10, §12). Read from every network's schema and kept for a
 * minute; when the networks cannot be read, the answer is an error, so callers fail closed.
 */
@Injectable()
export class ActionBoundTools {
  private readonly logger = new Logger('ActionBoundTools');
  private cached?: { until: number; names: Promise<ReadonlySet<string>> };

  constructor(private readonly networks: KnowledgeNetworkPort) {}

  names(): Promise<ReadonlySet<string>> {
    const now = Date.now();
    if (!this.cached || this.cached.until <= now) {
      const names = this.read();
      this.cached = { until: now + TTL_MS, names };
      // A failed read is not kept: the next call tries again.
      names.catch(() => {
        if (this.cached?.names === names) this.cached = undefined;
      });
    }
    return this.cached.names;
  }

  private async read(): Promise<ReadonlySet<string>> {
    const names = new Set<string>();
    for (const network of await this.networks.listNetworks()) {
      const schema = await this.networks.exportSchema(network.id);
      for (const actionType of schema.action_types) {
        const name = boundToolName(actionType.action_source);
        if (name) names.add(name);
      }
    }
    this.logger.debug(`operator tools bound to actions: ${[...names].join(', ') || 'none'}`);
    return names;
  }
}
