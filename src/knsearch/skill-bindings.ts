import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import {
  InstanceIdentity,
  KnCondition,
  KnSchema,
  ObjectType,
  otherEnd,
  RelationType,
  RelationTypePath,
  SubgraphResult,
} from '../knowledge-network/knowledge-network.types';

// How skills are bound (README "Skills"): to instances through relation paths of one or two hops from
// the object type to the skills type (either direction), and to a whole object type by the skill's
// `object_type_id` data property naming it.

/** Relation paths followed per call, shortest first. */
export const MAX_BINDING_PATHS = 8;
/** Skills one mode reads per call (object-type query limit, skills step of every path). */
export const MAX_SKILLS_PER_QUERY = 200;
/** Rows of an intermediate hop and paths of one subgraph walk. */
const MAX_HOP_ROWS = 1000;

/** The property of a skill that names the object types it applies to. */
export const OBJECT_TYPE_PROPERTY = 'object_type_id';

/** Score of an instance-bound skill by path length: a direct relation is worth twice a two-hop one. */
export const hopScore = (hops: number): number => (hops <= 1 ? 1 : 0.5);

/**
 * The relation chains (one or two relation types) that lead from `objectTypeId` to `skillsTypeId`,
 * one-hop chains first, then by relation ids, at most MAX_BINDING_PATHS. The middle type of a two-hop
 * chain is neither end, so no chain walks back to where it started.
 */
export function bindingChains(schema: KnSchema, objectTypeId: string, skillsTypeId: string): RelationType[][] {
  const touching = (typeId: string): { relation: RelationType; other: string }[] =>
    schema.relation_types
      .filter((r) => r.source_object_type_id === typeId || r.target_object_type_id === typeId)
      .map((r) => ({
        relation: r,
        other: otherEnd(r, typeId),
      }))
      .sort((a, b) => (a.relation.id < b.relation.id ? -1 : a.relation.id > b.relation.id ? 1 : 0));
  const fromStart = touching(objectTypeId);
  const direct = fromStart.filter((hop) => hop.other === skillsTypeId).map((hop) => [hop.relation]);
  const twoHop = fromStart
    .filter((hop) => hop.other !== skillsTypeId && hop.other !== objectTypeId)
    .flatMap((first) =>
      touching(first.other)
        .filter((second) => second.other === skillsTypeId && second.relation.id !== first.relation.id)
        .map((second) => [first.relation, second.relation]),
    );
  return [...direct, ...twoHop].slice(0, MAX_BINDING_PATHS);
}

/** The object types a chain visits, start first: each relation leads to its end that is not the previous type. */
function chainTypes(chain: RelationType[], start: string): string[] {
  const types = [start];
  for (const relation of chain) {
    types.push(otherEnd(relation, types[types.length - 1]));
  }
  return types;
}

/** A subgraph path for one chain, starting at the instances the condition selects. */
export function chainPath(
  chain: RelationType[],
  start: string,
  condition: KnCondition,
  starts: number,
): RelationTypePath {
  const types = chainTypes(chain, start);
  return {
    object_types: types.map((id, i) => ({
      id,
      ...(i === 0 ? { condition, limit: starts } : {}),
      ...(i > 0 ? { limit: i === types.length - 1 ? MAX_SKILLS_PER_QUERY : MAX_HOP_ROWS } : {}),
    })),
    relation_types: chain.map((relation) => ({
      relation_type_id: relation.id,
      source_object_type_id: relation.source_object_type_id,
      target_object_type_id: relation.target_object_type_id,
    })),
    limit: MAX_HOP_ROWS,
  };
}

function primaryKeyValue(identity: InstanceIdentity, key: string, index: number, objectTypeId: string): unknown {
  const value = identity[key];
  if (value === undefined || value === null || value === '') {
    throw new AppException(
      ValidationErrors.Required,
      `instance_identities[${index}] lacks primary key "${key}" of object type "${objectTypeId}"`,
    );
  }
  return value;
}

/**
 * The instances the identities name: `in` over a single primary key, else `==` on every primary key
 * and `or` across identities. An identity that lacks a primary key is a 400 naming it, so a typo never
 * widens the search to every instance.
 */
export function identityCondition(objectType: ObjectType, identities: InstanceIdentity[]): KnCondition {
  const keys = objectType.primary_keys;
  const rows = identities.map((identity, i) => keys.map((key) => primaryKeyValue(identity, key, i, objectType.id)));
  if (keys.length === 1) return { operation: 'in', field: keys[0], value: [...new Set(rows.map(([value]) => value))] };
  const perIdentity = rows.map((values): KnCondition => ({
    operation: 'and',
    sub_conditions: values.map((value, k): KnCondition => ({ operation: '==', field: keys[k], value })),
  }));
  return perIdentity.length === 1 ? perIdentity[0] : { operation: 'or', sub_conditions: perIdentity };
}

/** The skills a subgraph reached, each with the hop count of the path that reached it. */
export function skillsInSubgraph(
  result: SubgraphResult,
  skillsTypeId: string,
): { properties: Record<string, unknown>; hops: number }[] {
  const found: { properties: Record<string, unknown>; hops: number }[] = [];
  for (const entry of result.entries ?? []) {
    for (const path of entry.relation_paths ?? []) {
      const hops = path.relations?.length ?? 0;
      const ids = new Set(
        path.relations?.flatMap((relation) => [relation.source_object_id, relation.target_object_id]),
      );
      for (const id of ids) {
        const object = entry.objects?.[id];
        if (object?.object_type_id === skillsTypeId) found.push({ properties: object.properties ?? {}, hops });
      }
    }
  }
  return found;
}

/** The object-type mode condition: a cheap substring prefilter; `namesObjectType` then decides exactly. */
export function objectTypeCondition(objectTypeId: string): KnCondition {
  return { operation: 'like', field: OBJECT_TYPE_PROPERTY, value: `%${objectTypeId}%` };
}

/** Whether a skill's `object_type_id` value names the object type: exactly, or as one item of a comma/space list. */
export function namesObjectType(value: unknown, objectTypeId: string): boolean {
  if (typeof value !== 'string') return false;
  return value.trim() === objectTypeId || value.split(/[\s,，;；|]+/).includes(objectTypeId);
}
