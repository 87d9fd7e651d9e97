import { AppException } from '../../common/errors/app.exception';
import { LogicProperty, ObjectType } from '../knowledge-network.types';
import { asRecord } from './json-readers';
import { KnErrors } from '../knowledge-network.errors';

export type DynamicParams = Record<string, Record<string, unknown>>;

/** The requested logic properties of an object type; unknown or non-logic names are a 400 (as the Go service). */
export function requireLogicProperties(objectType: ObjectType, names: string[]): LogicProperty[] {
  const byName = new Map(objectType.logic_properties.map((property) => [property.name, property]));
  const missing = names.filter((name) => !byName.has(name));
  if (missing.length > 0) {
    const available = [...byName.keys()];
    throw new AppException(
      KnErrors.LogicPropertyNotFound,
      `properties not found or not logic properties: [${missing.join(', ')}] (available logic properties: [${available.join(', ')}])`,
    );
  }
  return names.map((name) => byName.get(name)!);
}

/**
 * `dynamic_params` for ontology-query from the caller's inputs. The Go service asks an agent-factory
 * LLM agent to generate these; here they must be given: either per property (`{<property>: {…}}`,
 * used as is) or flat (`{start: …}`, matched by name to each property's `input` parameters; a
 * property that declares no parameters receives every flat input).
 */
export function dynamicParamsFor(properties: LogicProperty[], inputs: Record<string, unknown> = {}): DynamicParams {
  const requested = new Set(properties.map((property) => property.name));
  const flat = Object.entries(inputs).filter(([name, value]) => !requested.has(name) && value !== undefined);
  // Object.fromEntries defines own keys, so a hostile "__proto__" input stays plain data.
  return Object.fromEntries(
    properties.map((property) => {
      const perProperty = asRecord(inputs[property.name]);
      return [
        property.name,
        perProperty ? Object.fromEntries(Object.entries(perProperty)) : flatInputsFor(property, flat),
      ];
    }),
  );
}

function flatInputsFor(property: LogicProperty, flat: [string, unknown][]): Record<string, unknown> {
  if (property.parameters.length === 0) return Object.fromEntries(flat);
  const inputNames = new Set(property.parameters.filter((p) => p.value_from === 'input').map((p) => p.name));
  return Object.fromEntries(flat.filter(([name]) => inputNames.has(name)));
}
