import { ActionType, ObjectType } from '../knowledge-network.types';
import {
  ParsedActionType,
  ParsedConceptGroup,
  ParsedMetricType,
  ParsedObjectType,
  ParsedRelationType,
  ParsedSchema,
} from './bkn/bkn-definitions';
import { NetworkProblems } from './network-problems';

/** Data property names of an object type of the network (empty for an unknown type). */
type PropertiesOf = (objectTypeId: string) => Set<string>;

/**
 * Cross-file checks: unique ids and every reference (endpoints, properties, bound objects, conditions)
 * resolving. `check` records every problem; `validate` throws them all at once.
 */
export class SchemaValidator {
  validate(schema: ParsedSchema): void {
    const problems = new NetworkProblems();
    this.check(schema, problems);
    problems.throwIfAny();
  }

  check(schema: ParsedSchema, problems: NetworkProblems): void {
    this.unique(schema, problems);
    const objectTypes = new Map<string, ObjectType>(schema.objectTypes.map((entry) => [entry.type.id, entry.type]));
    const properties: PropertiesOf = (id) =>
      new Set(objectTypes.get(id)?.data_properties.map((property) => property.name) ?? []);
    for (const objectType of schema.objectTypes) this.logicBindings(objectType, properties, problems);
    for (const relation of schema.relationTypes) this.relation(relation, objectTypes, properties, problems);
    for (const action of schema.actionTypes) this.action(action, schema, objectTypes, properties, problems);
    for (const metric of schema.metricTypes) this.metric(metric, objectTypes, properties, problems);
    for (const group of schema.conceptGroups) this.conceptGroup(group, objectTypes, problems);
  }

  private logicBindings(objectType: ParsedObjectType, properties: PropertiesOf, problems: NetworkProblems): void {
    const own = properties(objectType.type.id);
    for (const logic of objectType.type.logic_properties) {
      for (const parameter of logic.parameters) {
        if (parameter.value_from !== 'property' || own.has(String(parameter.value))) continue;
        problems.error(
          objectType.origin.file,
          objectType.origin.line,
          `logic property "${logic.name}" binds parameter "${parameter.name}" to unknown property "${String(parameter.value)}"`,
        );
      }
    }
  }

  private relation(
    relation: ParsedRelationType,
    objectTypes: Map<string, ObjectType>,
    properties: PropertiesOf,
    problems: NetworkProblems,
  ): void {
    const { source_object_type_id: source, target_object_type_id: target } = relation.type;
    const fail = (line: number, problem: string): void => problems.error(relation.origin.file, line, problem);
    const ends = [source, target].filter((end) => !objectTypes.has(end));
    for (const end of ends) fail(relation.endpointLine, `endpoint object type "${end}" is not defined in this network`);
    // A mapping onto an undefined end would only repeat the endpoint problem once per row.
    if (ends.length > 0) return;
    const check = (objectProperty: string, end: string, line: number): void => {
      if (!properties(end).has(objectProperty)) fail(line, `"${objectProperty}" is not a property of ${end}`);
    };
    if (relation.mapping.kind === 'direct') {
      for (const pair of relation.mapping.pairs) {
        check(pair.source, source, pair.line);
        check(pair.target, target, pair.line);
      }
    } else {
      for (const entry of relation.mapping.source) check(entry.objectProperty, source, entry.line);
      for (const entry of relation.mapping.target) check(entry.objectProperty, target, entry.line);
    }
  }

  private action(
    action: ParsedActionType,
    schema: ParsedSchema,
    objectTypes: Map<string, ObjectType>,
    properties: PropertiesOf,
    problems: NetworkProblems,
  ): void {
    const bound = action.type.object_type_id;
    const { file, line } = action.origin;
    if (!objectTypes.has(bound)) {
      problems.error(file, action.boundLine, `bound object type "${bound}" is not defined in this network`);
      return;
    }
    for (const parameter of action.type.parameters) {
      if (parameter.value_from !== 'property' || properties(bound).has(String(parameter.value))) continue;
      problems.error(
        file,
        line,
        `parameter "${parameter.name}" is bound to unknown property "${String(parameter.value)}" of ${bound}`,
      );
    }
    for (const problem of conditionReferenceProblems(action.type, properties(bound), schema)) {
      problems.error(file, line, problem);
    }
  }

  private metric(
    { metric, origin }: ParsedMetricType,
    objectTypes: Map<string, ObjectType>,
    properties: PropertiesOf,
    problems: NetworkProblems,
  ): void {
    if (metric.scope_type !== 'object_type') return;
    if (!objectTypes.has(metric.scope_ref)) {
      problems.error(origin.file, 1, `scope_ref "${metric.scope_ref}" is not an object type of this network`);
      return;
    }
    for (const dimension of metric.analysis_dimensions ?? []) {
      if (properties(metric.scope_ref).has(dimension.name)) continue;
      problems.error(
        origin.file,
        origin.line,
        `analysis dimension "${dimension.name}" is not a property of ${metric.scope_ref}`,
      );
    }
  }

  private conceptGroup(
    group: ParsedConceptGroup,
    objectTypes: Map<string, ObjectType>,
    problems: NetworkProblems,
  ): void {
    for (const id of group.group.object_type_ids) {
      if (!objectTypes.has(id))
        problems.error(group.origin.file, group.origin.line, `object type "${id}" is not defined in this network`);
    }
  }

  private unique(schema: ParsedSchema, problems: NetworkProblems): void {
    const seen = new Map<string, string>();
    const all = [
      ...schema.objectTypes.map((entry) => ({ kind: 'object type', id: entry.type.id, origin: entry.origin })),
      ...schema.relationTypes.map((entry) => ({ kind: 'relation type', id: entry.type.id, origin: entry.origin })),
      ...schema.actionTypes.map((entry) => ({ kind: 'action type', id: entry.type.id, origin: entry.origin })),
      ...schema.conceptGroups.map((entry) => ({ kind: 'concept group', id: entry.group.id, origin: entry.origin })),
      ...schema.metricTypes.map((entry) => ({ kind: 'metric', id: entry.metric.id, origin: entry.origin })),
    ];
    for (const entry of all) {
      const key = `${entry.kind}:${entry.id}`;
      const first = seen.get(key);
      if (first)
        problems.error(
          entry.origin.file,
          entry.origin.line,
          `${entry.kind} id "${entry.id}" is already defined in ${first}`,
        );
      else seen.set(key, entry.origin.file);
    }
  }
}

/** Each trigger condition or pre-condition naming a property the bound type lacks, or a relation not touching it. */
function conditionReferenceProblems(action: ActionType, properties: Set<string>, schema: ParsedSchema): string[] {
  const bound = action.object_type_id;
  const problems: string[] = [];
  for (const condition of [...(action.trigger_condition ?? []), ...(action.pre_conditions ?? [])]) {
    if (condition.field && !properties.has(condition.field)) {
      problems.push(`condition checks "${condition.field}", which is not a property of ${bound}`);
    }
    const relation = schema.relationTypes.find((entry) => entry.type.id === condition.relation_type_id)?.type;
    if (
      condition.relation_type_id &&
      relation?.source_object_type_id !== bound &&
      relation?.target_object_type_id !== bound
    ) {
      problems.push(
        `condition relation "${condition.relation_type_id}" is not a relation type of ${bound} in this network`,
      );
    }
  }
  return problems;
}
