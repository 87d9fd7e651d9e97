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
import { ActionConditionChecker, ConditionVerdict } from './action-condition-checker';
import { ActionRecallErrors } from './actionrecall.errors';
import { ActionRecallService } from './actionrecall.service';
import { ActionTarget, ExecuteActionRequest, ExecuteActionResponse, RecalledAction } from './actionrecall.types';
import { isPlainObject } from './json-schema';

type Arguments = Record<string, unknown>;

/** What check_action answers: execute_action's decisions for one instance, without running the tool. */
export interface ActionDryRun {
  at_id: string;
  kn_id: string;
  action: ExecuteActionResponse['action'];
  _instance_identity: InstanceIdentity;
  enabled: boolean;
  /** The arguments execute_action would send, fixed values merged. */
  arguments: Arguments;
  fixed_arguments: ExecuteActionResponse['fixed_arguments'];
  /** Each violation of the action's parameters schema, with its field path; empty when they are valid. */
  argument_errors: string[];
  conditions: ConditionVerdict[];
  /** execute_action needs `confirm: true` (the action requires approval or is high risk). */
  requires_confirmation: boolean;
  /** Enabled, valid arguments and every condition holding: execute_action would run the tool. */
  would_run: boolean;
}

/** Why an execution needs the user's approval, or undefined when it does not. */
function approvalNeeded(type: ActionType | undefined): string | undefined {
  if (type?.requires_approval === true) return 'requires approval';
  return type?.risk_level === 'high' ? 'is high risk and requires approval' : undefined;
}
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

  /**
   * check_action: everything execute_action decides before it runs the tool — the binding, the merged
   * arguments and their violations, each condition with its verdict, whether approval is needed — and
   * nothing run. Every condition is evaluated, so the caller sees all that would refuse, not only the first.
   */
  async dryRun(request: Omit<ExecuteActionRequest, 'confirm'>): Promise<ActionDryRun> {
    const input = this.checkInput({ ...request, confirm: false });
    const bound = await this.bind(input);
    const recalled = await this.recall.describe(bound.source, bound.parameters);
    const merged = this.merge(recalled.target, bound.parameters, input.arguments);
    const violations = this.violations(input.atId, recalled, merged.arguments);
    const conditions = bound.type ? await this.conditions.evaluate(input.knId, bound.type, bound.identity) : [];
    const enabled = bound.type?.enabled !== false;
    const approval = approvalNeeded(bound.type);
    return {
      at_id: input.atId,
      kn_id: input.knId,
      action: this.describeAction(input.atId, bound),
      _instance_identity: bound.identity,
      enabled,
      arguments: merged.arguments,
      fixed_arguments: merged.fixed_arguments,
      argument_errors: violations,
      conditions,
      requires_confirmation: approval !== undefined,
      would_run: enabled && violations.length === 0 && conditions.every((verdict) => verdict.holds),
    };
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
    const violations = this.violations(atId, recalled, args);
    if (violations.length > 0) throw new AppException(ActionRecallErrors.InvalidActionArguments, violations);
  }

  private violations(atId: string, recalled: RecalledAction, args: Arguments): string[] {
    try {
      return this.validator.violations(recalled.tool.parameters, args);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`parameters schema of action ${atId} does not compile: ${reason}`);
      throw new AppException(
        ActionRecallErrors.SchemaConversionFailed,
        `the parameters schema of action ${atId} cannot be used for validation`,
        { cause: error },
      );
    }
  }

  /**
   * An action that requires approval (or is high risk) runs only once approved: by the human through the
   * door's channel when the client has one (the model's `confirm` then counts for nothing), else by `confirm`.
   */
  private async requireApproval(input: ExecutionInput, bound: BoundAction, args: Arguments): Promise<void> {
    const type = bound.type;
    const why = approvalNeeded(type);
    if (!why) return;
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
