import { ActionType } from '../knowledge-network.types';
import { ParsedSchema } from './bkn/bkn-definitions';
import { BknFormatError } from './bkn/bkn-format.error';

/** Cross-file checks: unique ids and every reference (endpoints, properties, bound objects) resolving. */
export class SchemaValidator {
  validate(schema: ParsedSchema): void {
    this.unique(schema);
    const objectTypes = new Map(schema.objectTypes.map((entry) => [entry.type.id, entry.type]));
    const properties = (otId: string): Set<string> =>
      new Set(objectTypes.get(otId)?.data_properties.map((property) => property.name) ?? []);
    for (const objectType of schema.objectTypes) {
      const own = properties(objectType.type.id);
      for (const logic of objectType.type.logic_properties) {
        for (const parameter of logic.parameters) {
          if (parameter.value_from === 'property' && !own.has(String(parameter.value))) {
            throw new BknFormatError(
              objectType.origin.file,
              objectType.origin.line,
              `logic property "${logic.name}" binds parameter "${parameter.name}" to unknown property "${String(parameter.value)}"`,
            );
          }
        }
      }
    }
    for (const relation of schema.relationTypes) {
      const { source_object_type_id: source, target_object_type_id: target } = relation.type;
      const fail = (line: number, problem: string): never => {
        throw new BknFormatError(relation.origin.file, line, problem);
      };
      for (const end of [source, target]) {
        if (!objectTypes.has(end))
          fail(relation.endpointLine, `endpoint object type "${end}" is not defined in this network`);
      }
      const sourceProps = properties(source);
      const targetProps = properties(target);
      if (relation.mapping.kind === 'direct') {
        for (const pair of relation.mapping.pairs) {
          if (!sourceProps.has(pair.source)) fail(pair.line, `"${pair.source}" is not a property of ${source}`);
          if (!targetProps.has(pair.target)) fail(pair.line, `"${pair.target}" is not a property of ${target}`);
        }
      } else {
        for (const entry of relation.mapping.source) {
          if (!sourceProps.has(entry.objectProperty))
            fail(entry.line, `"${entry.objectProperty}" is not a property of ${source}`);
        }
        for (const entry of relation.mapping.target) {
          if (!targetProps.has(entry.objectProperty))
            fail(entry.line, `"${entry.objectProperty}" is not a property of ${target}`);
        }
      }
    }
    for (const action of schema.actionTypes) {
      const bound = action.type.object_type_id;
      if (!objectTypes.has(bound)) {
        throw new BknFormatError(
          action.origin.file,
          action.boundLine,
          `bound object type "${bound}" is not defined in this network`,
        );
      }
      for (const parameter of action.type.parameters) {
        if (parameter.value_from === 'property' && !properties(bound).has(String(parameter.value))) {
          throw new BknFormatError(
            action.origin.file,
            action.origin.line,
            `parameter "${parameter.name}" is bound to unknown property "${String(parameter.value)}" of ${bound}`,
          );
        }
      }
      const problem = conditionReferenceProblem(action.type, properties(bound), schema);
      if (problem) throw new BknFormatError(action.origin.file, action.origin.line, problem);
    }
    for (const { metric, origin } of schema.metricTypes) {
      if (metric.scope_type !== 'object_type') continue;
      if (!objectTypes.has(metric.scope_ref)) {
        throw new BknFormatError(
          origin.file,
          1,
          `scope_ref "${metric.scope_ref}" is not an object type of this network`,
        );
      }
      const unknown = (metric.analysis_dimensions ?? []).find((d) => !properties(metric.scope_ref).has(d.name));
      if (unknown) {
        throw new BknFormatError(
          origin.file,
          origin.line,
          `analysis dimension "${unknown.name}" is not a property of ${metric.scope_ref}`,
        );
      }
    }
    for (const group of schema.conceptGroups) {
      const unknown = group.group.object_type_ids.find((id) => !objectTypes.has(id));
      if (unknown)
        throw new BknFormatError(
          group.origin.file,
          group.origin.line,
          `object type "${unknown}" is not defined in this network`,
        );
    }
  }

  private unique(schema: ParsedSchema): void {
    const seen = new Map<string, string>();
    const all = [
      ...schema.objectTypes.map((entry) => ({
        kind: 'object type',
        id: entry.type.id,
        origin: entry.origin,
      })),
      ...schema.relationTypes.map((entry) => ({
        kind: 'relation type',
        id: entry.type.id,
        origin: entry.origin,
      })),
      ...schema.actionTypes.map((entry) => ({
        kind: 'action type',
        id: entry.type.id,
        origin: entry.origin,
      })),
      ...schema.conceptGroups.map((entry) => ({
        kind: 'concept group',
        id: entry.group.id,
        origin: entry.origin,
      })),
      ...schema.metricTypes.map((entry) => ({ kind: 'metric', id: entry.metric.id, origin: entry.origin })),
    ];
    for (const entry of all) {
      const key = `${entry.kind}:${entry.id}`;
      const first = seen.get(key);
      if (first)
        throw new BknFormatError(
          entry.origin.file,
          entry.origin.line,
          `${entry.kind} id "${entry.id}" is already defined in ${first}`,
        );
      seen.set(key, entry.origin.file);
    }
  }
}

/** A trigger condition or pre-condition naming a property the bound type lacks, or a relation not touching it. */
function conditionReferenceProblem(
  action: ActionType,
  properties: Set<string>,
  schema: ParsedSchema,
): string | undefined {
  const bound = action.object_type_id;
  for (const condition of [...(action.trigger_condition ?? []), ...(action.pre_conditions ?? [])]) {
    if (condition.field && !properties.has(condition.field)) {
      return `condition checks "${condition.field}", which is not a property of ${bound}`;
    }
    const relation = schema.relationTypes.find((entry) => entry.type.id === condition.relation_type_id)?.type;
    if (
      condition.relation_type_id &&
      relation?.source_object_type_id !== bound &&
      relation?.target_object_type_id !== bound
    ) {
      return `condition relation "${condition.relation_type_id}" is not a relation type of ${bound} in this network`;
    }
  }
  return undefined;
}
