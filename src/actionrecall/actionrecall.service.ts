import { Inject, Injectable, Logger } from '@nestjs/common';
import { PRIVATE_PREFIX } from '../common/http/route-prefixes';
import { pathSegment } from '../common/http/upstream-url';
import { Counter } from 'prom-client';
import { accountHeaders } from '../common/auth/forward-headers';
import type { AccountContext } from '../common/auth/account';
import { AppException } from '../common/errors/app.exception';
import { InputLimits, requireIdentifier } from '../common/limits/input-limits';
import { configToken, OperatorsConfig } from '../config';
import { ActionSource, InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { MetricsService } from '../metrics/metrics.service';
import { OperatorPort } from '../operators/operator.port';
import { collectIdentities } from './action-identities';
import { ActionRecallErrors } from './actionrecall.errors';
import {
  ActionBinding,
  DynamicTool,
  GetActionInfoRequest,
  GetActionInfoResponse,
  RecalledAction,
} from './actionrecall.types';
import { mapFixedParams } from './fixed-params';
import { JsonSchema, SchemaConversionError } from './json-schema';
import { convertToolSchemaToFunctionCall } from './layered-tool-schema';
import { convertMcpSchemaToFunctionCall } from './schema-converter';

const API_CALL_STRATEGY = 'kn_action_recall';

/**
 * Action recall (SPEC §6): the action type's source and bound parameters from the knowledge network,
 * the tool's schema from the operator port, turned into an OpenAI function-call definition with the URL
 * and fixed parameters a caller needs to run it. REST, MCP and chat all call `getActionInfo`; execute_action
 * recalls through the same `bind` and `describe`.
 */
@Injectable()
export class ActionRecallService {
  private readonly logger = new Logger('ActionRecall');
  private readonly conversions: Counter<string>;

  constructor(
    private readonly kn: KnowledgeNetworkPort,
    private readonly operators: OperatorPort,
    @Inject(configToken('operators')) private readonly config: OperatorsConfig,
    metrics: MetricsService,
    private readonly limits: InputLimits,
  ) {
    this.conversions = metrics.counter(
      'schema_conversions_total',
      'Tool schema → function-call conversions by source type (tool, mcp) and outcome (ok, failed)',
      ['source', 'outcome'],
    );
  }

  /** `account`: the caller, whose headers the answer echoes (default: the ambient request's). */
  async getActionInfo(request: GetActionInfoRequest, account?: AccountContext): Promise<GetActionInfoResponse> {
    const atId = requireIdentifier('at_id', request.at_id);
    this.limits.instanceIdentities('_instance_identities', request._instance_identities);
    const { source, action } = await this.bind(request.kn_id, atId, collectIdentities(request));
    const headers = accountHeaders(account);
    if (!source || !action) return { headers, _dynamic_tools: [] };
    const { tool } = await this.describe(source, action.parameters);
    return { headers, _dynamic_tools: [tool] };
  }

  /** The action type, its source and the first action bound to the instances (step 1 of recall, SPEC §6). */
  async bind(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionBinding> {
    const result = await this.kn.queryActions(knId, atId, identities);
    const first = result.actions?.[0];
    const binding: ActionBinding = { actionType: result.action_type, source: result.action_source };
    if (first) binding.action = { parameters: first.parameters ?? {}, identity: first._instance_identity };
    return binding;
  }

  /** The source's tool as a function-call definition with its fixed parameters (steps 3–5 of SPEC §6). */
  async describe(source: ActionSource, parameters: Record<string, unknown>): Promise<RecalledAction> {
    if (source.type === 'tool') return this.toolAction(source, parameters);
    if (source.type === 'mcp') return this.mcpAction(source, parameters);
    throw new AppException(
      ActionRecallErrors.UnsupportedActionSource,
      `only action sources of type tool or mcp are supported; got ${JSON.stringify(String(source.type).slice(0, 64))}`,
    );
  }

  private async toolAction(source: ActionSource, parameters: Record<string, unknown>): Promise<RecalledAction> {
    const boxId = sourceField(source, 'box_id');
    const toolId = sourceField(source, 'tool_id');
    const detail = await this.operators.getToolDetail(boxId, toolId);
    const schema = this.convert('tool', `${boxId}/${toolId}`, () => convertToolSchemaToFunctionCall(detail.api_spec));
    const tool: DynamicTool = {
      name: detail.name,
      description: detail.description,
      parameters: schema,
      api_url: this.operators.toolProxyUrl(boxId, toolId),
      original_schema: detail.api_spec,
      fixed_params: mapFixedParams(parameters, detail.api_spec),
      api_call_strategy: API_CALL_STRATEGY,
    };
    return { tool, target: { kind: 'tool', boxId, toolId, apiSpec: detail.api_spec } };
  }

  private async mcpAction(source: ActionSource, parameters: Record<string, unknown>): Promise<RecalledAction> {
    const mcpId = sourceField(source, 'mcp_id');
    const toolName = sourceField(source, 'tool_name');
    const detail = await this.operators.getMcpToolDetail(mcpId, toolName);
    const schema = this.convert('mcp', `${mcpId}/${toolName}`, () =>
      convertMcpSchemaToFunctionCall(detail.inputSchema),
    );
    const tool: DynamicTool = {
      name: detail.name,
      description: detail.description,
      parameters: schema,
      api_url: `${this.config.actionProxyBaseUrl}${PRIVATE_PREFIX}/mcp/proxy/${pathSegment('mcp_id', mcpId)}/tools/${pathSegment('tool_name', toolName)}/call`,
      original_schema: detail.inputSchema,
      fixed_params: { ...parameters },
      api_call_strategy: API_CALL_STRATEGY,
    };
    return { tool, target: { kind: 'mcp', mcpId, toolName } };
  }

  /** Runs one conversion; a failure is counted, logged with its cause and answered as a 500 (seed 000 §7.3). */
  private convert(source: 'tool' | 'mcp', target: string, conversion: () => JsonSchema): JsonSchema {
    try {
      const schema = conversion();
      this.conversions.inc({ source, outcome: 'ok' });
      return schema;
    } catch (error) {
      this.conversions.inc({ source, outcome: 'failed' });
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`schema conversion failed for ${source} ${target}: ${reason}`);
      // Our converter's own messages describe the schema; anything else is internal and stays in the log.
      const shown = error instanceof SchemaConversionError ? `: ${reason}` : '';
      throw new AppException(ActionRecallErrors.SchemaConversionFailed, `${source} ${target}${shown}`, {
        cause: error,
      });
    }
  }
}

/** A source of type tool needs box_id + tool_id, of type mcp needs mcp_id + tool_name. */
function sourceField(source: ActionSource, field: 'box_id' | 'tool_id' | 'mcp_id' | 'tool_name'): string {
  const value = source[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppException(
      ActionRecallErrors.UnsupportedActionSource,
      `action source of type ${source.type} has no ${field}`,
    );
  }
  return value;
}
