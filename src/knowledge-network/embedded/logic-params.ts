import { BoundParameter, LogicProperty, ObjectType } from '../knowledge-network.types';

/**
 * A bound parameter's value for one instance: `const` as declared, `property` from the instance's values
 * (null when empty); `input` parameters have none here (the caller supplies them), nor do `property`
 * ones without an instance.
 */
export function boundValue(
  parameter: BoundParameter,
  values: Record<string, unknown> | undefined,
): { value: unknown } | undefined {
  if (parameter.value_from === 'const') return { value: parameter.value };
  if (parameter.value_from === 'property' && values) return { value: values[String(parameter.value)] ?? null };
  return undefined;
}

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
      parameters: property.parameters.map((parameter) => ({
        name: parameter.name,
        type: parameter.type,
        value_from: parameter.value_from,
        ...boundValue(parameter, values),
        ...(parameter.comment ? { comment: parameter.comment } : {}),
      })),
    };
  }
  return out;
}
