import { Injectable, Logger } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { ErrorDefinition } from '../common/errors/error-codes';
import { actionConditionProblem } from '../knowledge-network/action-conditions';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import {
  ActionCondition,
  ActionType,
  InstanceIdentity,
  KnCondition,
  ObjectInstance,
  otherEnd,
} from '../knowledge-network/knowledge-network.types';
import { ActionRecallErrors } from './actionrecall.errors';
import { describeCondition, propertyConditionHolds } from './condition-evaluation';

interface ConditionGroup {
  kind: 'trigger' | 'pre';
  label: 'trigger condition' | 'pre-condition';
  refusal: ErrorDefinition;
  conditions: ActionCondition[];
}

/** Reads of one check run: the instance is loaded once, only when a property check needs it. */
interface CheckScope {
  knId: string;
  action: ActionType;
  identity: InstanceIdentity;
  instance?: Promise<ObjectInstance>;
}

/** One condition as a dry run reports it: which group, in words, whether it holds and the value it read. */
export interface ConditionVerdict {
  kind: 'trigger' | 'pre';
  condition: string;
  holds: boolean;
  /** The instance's value a property condition compared (JSON text, or `no value`). */
  found?: string;
  message?: string;
}

/** The Trigger Condition first, then the Pre-conditions, in the order the network declares them. */
function conditionGroups(action: ActionType): ConditionGroup[] {
  return [
    {
      kind: 'trigger',
      label: 'trigger condition',
      refusal: ActionRecallErrors.ActionTriggerConditionNotMet,
      conditions: action.trigger_condition ?? [],
    },
    {
      kind: 'pre',
      label: 'pre-condition',
      refusal: ActionRecallErrors.ActionPreconditionFailed,
      conditions: action.pre_conditions ?? [],
    },
  ];
}

/** The primary-key condition that selects exactly the identified instance. */
export function identityCondition(identity: InstanceIdentity): KnCondition {
  return {
    operation: 'and',
    sub_conditions: Object.entries(identity).map(([field, value]) => ({
      operation: '==',
      field,
      value,
      value_from: 'const',
    })),
  };
}

/**
 * Evaluates an action type's Trigger Condition, then its Pre-conditions, against the bound instance,
 * through the knowledge-network port only (queryInstances, querySubgraph, exportSchema), so both
 * backends answer. The first check that fails refuses the execution with a 409 naming it and its message.
 */
@Injectable()
export class ActionConditionChecker {
  private readonly logger = new Logger('ActionConditions');

  constructor(private readonly kn: KnowledgeNetworkPort) {}

  async check(knId: string, action: ActionType, identity: InstanceIdentity): Promise<void> {
    const scope: CheckScope = { knId, action, identity };
    for (const group of conditionGroups(action)) {
      for (const condition of group.conditions) {
        const verdict = await this.evaluateOne(scope, group, condition);
        if (verdict.holds) continue;
        const found = verdict.found === undefined ? '' : ` (found ${verdict.found})`;
        const message = condition.message ? `: ${condition.message}` : '';
        throw new AppException(
          group.refusal,
          `action ${action.id}: ${group.label} not met: ${verdict.condition}${found}${message}`,
        );
      }
    }
  }

  /** Every condition evaluated, none skipped and none refused: what a dry run shows before an execution. */
  async evaluate(knId: string, action: ActionType, identity: InstanceIdentity): Promise<ConditionVerdict[]> {
    const scope: CheckScope = { knId, action, identity };
    const verdicts: ConditionVerdict[] = [];
    for (const group of conditionGroups(action)) {
      for (const condition of group.conditions) verdicts.push(await this.evaluateOne(scope, group, condition));
    }
    return verdicts;
  }

  private async evaluateOne(
    scope: CheckScope,
    group: ConditionGroup,
    condition: ActionCondition,
  ): Promise<ConditionVerdict> {
    const problem =
      actionConditionProblem(condition) ??
      (condition.object_type_id && condition.object_type_id !== scope.action.object_type_id
        ? `checks object type ${condition.object_type_id}, not the bound ${scope.action.object_type_id}`
        : undefined);
    if (problem) throw this.invalid(scope.action, `${group.label} ${describeCondition(condition)}: ${problem}`);
    const verdict: ConditionVerdict = { kind: group.kind, condition: describeCondition(condition), holds: false };
    if (condition.message) verdict.message = condition.message;
    if (condition.field) {
      const actual = (await this.instance(scope))[condition.field];
      verdict.holds = propertyConditionHolds(condition, actual);
      verdict.found = actual === undefined || actual === null ? 'no value' : JSON.stringify(actual);
    } else {
      const related = await this.hasRelated(scope, String(condition.relation_type_id));
      verdict.holds = related === (condition.operation === 'exist');
    }
    return verdict;
  }

  private instance(scope: CheckScope): Promise<ObjectInstance> {
    scope.instance ??= this.kn
      .queryInstances(scope.knId, scope.action.object_type_id, {
        condition: identityCondition(scope.identity),
        limit: 1,
      })
      .then(({ datas }) => {
        if (datas[0]) return datas[0];
        throw new AppException(
          ActionRecallErrors.ActionInstanceNotFound,
          `no ${scope.action.object_type_id} instance has the identity ${JSON.stringify(scope.identity)}`,
        );
      });
    return scope.instance;
  }

  /** Whether the instance has at least one related instance through the relation type, either direction. */
  private async hasRelated(scope: CheckScope, relationTypeId: string): Promise<boolean> {
    const bound = scope.action.object_type_id;
    const schema = await this.kn.exportSchema(scope.knId);
    const relation = schema.relation_types.find((candidate) => candidate.id === relationTypeId);
    if (!relation || (relation.source_object_type_id !== bound && relation.target_object_type_id !== bound)) {
      throw this.invalid(scope.action, `relation type ${relationTypeId} does not connect ${bound} in ${scope.knId}`);
    }
    const other = otherEnd(relation, bound);
    const { entries } = await this.kn.querySubgraph(scope.knId, [
      {
        object_types: [
          { id: bound, condition: identityCondition(scope.identity), limit: 1 },
          { id: other, limit: 1 },
        ],
        relation_types: [
          {
            relation_type_id: relation.id,
            source_object_type_id: relation.source_object_type_id,
            target_object_type_id: relation.target_object_type_id,
          },
        ],
        limit: 1,
      },
    ]);
    return entries.some((entry) => entry.relation_paths.some((path) => path.relations.length > 0));
  }

  /** A condition the network declares but this service cannot evaluate: the author's fault, logged, 500. */
  private invalid(action: ActionType, problem: string): AppException {
    this.logger.error(`action type ${action.id}: ${problem}`);
    return new AppException(ActionRecallErrors.ActionConditionInvalid, `action ${action.id}: ${problem}`);
  }
}
