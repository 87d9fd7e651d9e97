import { ActionQueryResult, ActionType, BoundParameter, InstanceIdentity } from '../knowledge-network.types';
import { IdentityLookup } from './identity-lookup';
import { ObjectTable } from './object-table';
import { boundValue } from './logic-params';
import { instanceIdentity, rowValues } from './row-mapping';

/** Binds an action type's Parameter Binding to target instances: property → value, const → constant. */
export class ActionBinder {
  constructor(private readonly lookup: IdentityLookup) {}

  bind(action: ActionType, table: ObjectTable, identities: InstanceIdentity[]): ActionQueryResult {
    const result: ActionQueryResult = {
      action_type: action,
      action_source: action.action_source,
      actions: [],
    };
    if (identities.length === 0) {
      result.actions.push({ parameters: this.parameters(action.parameters, undefined) });
      return result;
    }
    identities.forEach((identity, i) => {
      const row = this.lookup.find(table, identity, `_instance_identities[${i}]`);
      if (!row) return;
      const values = rowValues(table, row);
      result.actions.push({
        parameters: this.parameters(action.parameters, values),
        _instance_identity: instanceIdentity(table.type, values),
      });
    });
    return result;
  }

  /** Input parameters are left for the caller; property parameters need an instance. */
  private parameters(
    parameters: BoundParameter[],
    values: Record<string, unknown> | undefined,
  ): Record<string, unknown> {
    const bound: Record<string, unknown> = {};
    for (const parameter of parameters) {
      const binding = boundValue(parameter, values);
      if (binding) bound[parameter.name] = binding.value;
    }
    return bound;
  }
}
