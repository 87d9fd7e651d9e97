import { LogicProperty, ObjectType } from '../knowledge-network.types';

/** One logic property as `include_logic_params` shows it on an instance: how to compute it for this instance. */
export interface InstanceLogicParams {
  type: string;
  data_source?: LogicProperty['data_source'];
  /** Bound values filled in: `property` from the instance, `const` as declared; `input` is left to the caller. */
  parameters: { name: string; type: string; value_from: string; value?: unknown; comment?: string }[];
}

/**
 * `include_logic_params=true` (upstream ontology-query): every logic property of the instance's type
 * under its own name, with its parameter definitions and the values this instance binds.
 */
export function logicParamsOf(type: ObjectType, values: Record<string, unknown>): Record<string, InstanceLogicParams> {
  const out: Record<string, InstanceLogicParams> = {};
  for (const property of type.logic_properties) {
    out[property.name] = {
      type: property.type,
      ...(property.data_source ? { data_source: property.data_source } : {}),
      parameters: property.parameters.map((parameter) => {
        const bound =
          parameter.value_from === 'property'
            ? { value: values[String(parameter.value)] ?? null }
            : parameter.value_from === 'const'
              ? { value: parameter.value }
              : {};
        return {
          name: parameter.name,
          type: parameter.type,
          value_from: parameter.value_from,
          ...bound,
          ...(parameter.comment ? { comment: parameter.comment } : {}),
        };
      }),
    };
  }
  return out;
}
