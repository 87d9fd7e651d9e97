import { Injectable, Logger } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { requiredDetails } from '../common/http/required-text';
import { InputLimits, requireIdentifier } from '../common/limits/input-limits';
import { ActionSource, ActionType, InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import { McpProxyService } from '../mcpproxy/mcp-proxy.service';
import { ToolboxProxyService } from '../mcpproxy/toolbox-proxy.service';
import type { Language } from '../config/i18n.config';
import type { HumanChannel } from './action-approval';
import { ActionArgumentValidator } from './action-argument-validator';
import { MergedArguments, mergeFlatArguments, mergeLayeredArguments } from './action-arguments';
import { ActionAudit } from './action-audit';
import { ActionConditionChecker } from './action-condition-checker';
import { ActionRecallErrors } from './actionrecall.errors';
import { ActionRecallService } from './actionrecall.service';
import { ActionTarget, ExecuteActionRequest, ExecuteActionResponse, RecalledAction } from './actionrecall.types';
import { isPlainObject } from './json-schema';

type Arguments = Record<string, unknown>;
type ToolAnswer = ExecuteActionResponse['result'];

/** A checked request: what the caller asked for, before anything was recalled. */
interface ExecutionInput {
  knId: string;
  atId: string;
  identity: InstanceIdentity;
  arguments: Record<string, unknown>;
  confirm: boolean;
  human?: HumanChannel;
  language: Language;
}

/** The bound action a request resolved to: its type (when the backend sends it), source and fixed values. */
interface BoundAction {
  type?: ActionType;
  source: ActionSource;
  parameters: Record<string, unknown>;
  identity: InstanceIdentity;
}

/**
 * execute_action (issue 15): recalls the action exactly as get_action_info does, merges the network's fixed
 * values over the caller's arguments, validates them against the recalled schema, enforces the action type's
 * `enabled`, trigger condition, pre-conditions and approval, then runs it in-process through the same proxy
 * services its `api_url` names (never an HTTP call to ourselves). Every execution is audited.
 */
@Injectable()
export class ActionExecutionService {
  private readonly logger = new Logger('ActionExecution');
  private readonly validator = new ActionArgumentValidator();

  constructor(
    private readonly recall: ActionRecallService,
    private readonly conditions: ActionConditionChecker,
    private readonly mcpProxy: McpProxyService,
    private readonly toolboxProxy: ToolboxProxyService,
    private readonly limits: InputLimits,
    private readonly audit: ActionAudit,
  ) {}

  execute(request: ExecuteActionRequest): Promise<ExecuteActionResponse> {
    return this.audit.track(() => this.run(this.checkInput(request)));
  }

  private async run(input: ExecutionInput): Promise<ExecuteActionResponse> {
    const bound = await this.bind(input);
    if (bound.type?.enabled === false) {
      throw new AppException(ActionRecallErrors.ActionDisabled, `action ${input.atId} is disabled (enabled: false)`);
    }
    const recalled = await this.recall.describe(bound.source, bound.parameters);
    const merged = this.merge(recalled.target, bound.parameters, input.arguments);
    this.validate(input.atId, recalled, merged.arguments);
    if (bound.type) await this.conditions.check(input.knId, bound.type, bound.identity);
    await this.requireApproval(input, bound, merged.arguments);
    const { result, failed } = await this.invoke(recalled.target, merged.arguments);
    return {
      at_id: input.atId,
      kn_id: input.knId,
      action: this.describeAction(input.atId, bound),
      _instance_identity: bound.identity,
      arguments: merged.arguments,
      fixed_arguments: merged.fixed_arguments,
      outcome: failed ? 'tool_error' : 'ok',
      result,
    };
  }

  private checkInput(request: ExecuteActionRequest): ExecutionInput {
    const atId = requireIdentifier('at_id', request.at_id);
    const identity = request._instance_identity;
    if (identity === undefined || identity === null) {
      throw new AppException(ValidationErrors.Required, requiredDetails('_instance_identity'));
    }
    if (!isPlainObject(identity) || Object.keys(identity).length === 0) {
      throw new AppException(ValidationErrors.Type, '_instance_identity must be an object of primary-key values');
    }
    const args = request.arguments ?? {};
    if (!isPlainObject(args)) throw new AppException(ValidationErrors.Type, 'arguments must be a JSON object');
    this.limits.freeJson('arguments', args);
    this.limits.freeJson('_instance_identity', identity);
    return {
      knId: request.kn_id,
      atId,
      identity,
      arguments: args,
      confirm: request.confirm === true,
      human: request.human,
      language: request.language ?? 'en-US',
    };
  }

  /** get_action_info's first step for the one instance; nothing to run is a 404 that says why. */
  private async bind(input: ExecutionInput): Promise<BoundAction> {
    const { actionType, source, action } = await this.recall.bind(input.knId, input.atId, [input.identity]);
    if (!action) {
      throw new AppException(
        ActionRecallErrors.ActionInstanceNotFound,
        `no ${actionType?.object_type_id ?? 'bound'} instance of action ${input.atId} has the identity ${JSON.stringify(input.identity).slice(0, 300)}`,
      );
    }
    if (!source) {
      throw new AppException(ActionRecallErrors.ActionNotExecutable, `action ${input.atId} has no tool or MCP source`);
    }
    return { type: actionType, source, parameters: action.parameters, identity: action.identity ?? input.identity };
  }

  /** The fixed values get_action_info reports as `fixed_params`, merged over the caller's arguments. */
  private merge(target: ActionTarget, fixed: Arguments, callerArguments: Arguments): MergedArguments<Arguments> {
    if (target.kind === 'mcp') return mergeFlatArguments(callerArguments, fixed);
    return mergeLayeredArguments(callerArguments, fixed, target.apiSpec);
  }

  /** ajv against the recalled `parameters`; each violation is listed with its field path (400). */
  private validate(atId: string, recalled: RecalledAction, args: Arguments): void {
    let violations: string[];
    try {
      violations = this.validator.violations(recalled.tool.parameters, args);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`parameters schema of action ${atId} does not compile: ${reason}`);
      throw new AppException(
        ActionRecallErrors.SchemaConversionFailed,
        `the parameters schema of action ${atId} cannot be used for validation`,
        { cause: error },
      );
    }
    if (violations.length > 0) throw new AppException(ActionRecallErrors.InvalidActionArguments, violations);
  }

  /**
   * An action that requires approval (or is high risk) runs only once approved: by the human through the
   * door's channel when the client has one (the model's `confirm` then counts for nothing), else by `confirm`.
   */
  private async requireApproval(input: ExecutionInput, bound: BoundAction, args: Arguments): Promise<void> {
    const type = bound.type;
    const needed = type?.requires_approval === true || type?.risk_level === 'high';
    if (!needed) return;
    const reason = type?.requires_approval === true ? 'requires_approval' : 'high_risk';
    if (input.human) {
      const answer = await input.human.ask({
        knId: input.knId,
        atId: input.atId,
        actionName: type?.name ?? input.atId,
        actionType: type?.action_type,
        riskLevel: type?.risk_level,
        source: bound.source,
        instance: bound.identity,
        arguments: args,
        reason,
        language: input.language,
      });
      if (answer === 'approved') return;
      throw new AppException(
        ActionRecallErrors.ActionDeclined,
        `the user declined action ${input.atId}; it did not run`,
      );
    }
    if (input.confirm) return;
    const why = reason === 'requires_approval' ? 'requires approval' : 'is high risk and requires approval';
    throw new AppException(
      ActionRecallErrors.ActionApprovalRequired,
      `action ${input.atId} ${why}: repeat the call with confirm: true after the user approved it`,
    );
  }

  /** The tool's answer and whether it reports a failure (MCP `isError`, an HTTP status of 400 or more). */
  private async invoke(target: ActionTarget, args: Arguments): Promise<{ result: ToolAnswer; failed: boolean }> {
    if (target.kind === 'mcp') {
      const result = await this.mcpProxy.call(target.mcpId, target.toolName, args);
      return { result, failed: result.isError === true };
    }
    const result = await this.toolboxProxy.execute(target.boxId, target.toolId, args);
    return { result, failed: result.status_code >= 400 };
  }

  private describeAction(atId: string, bound: BoundAction): ExecuteActionResponse['action'] {
    const action: ExecuteActionResponse['action'] = { name: bound.type?.name ?? atId, source: bound.source };
    if (bound.type?.action_type) action.action_type = bound.type.action_type;
    if (bound.type?.risk_level) action.risk_level = bound.type.risk_level;
    return action;
  }
}
