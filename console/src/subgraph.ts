import { rest, tool } from './api';

export interface GraphNode {
  id: string;
  objectTypeId: string;
  objectTypeName: string;
  label: string;
  identity: Record<string, unknown>;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  relationTypeId: string;
  label: string;
}

interface RelationType {
  id: string;
  name: string;
  source_object_type_id: string;
  target_object_type_id: string;
}

interface SubgraphObject {
  id: string;
  object_type_id: string;
  object_type_name?: string;
  display?: string;
  unique_identities: Record<string, unknown>;
}

interface SubgraphAnswer {
  entries: {
    objects: Record<string, SubgraphObject>;
    relation_paths: { relations: { relation_type_id: string; source_object_id: string; target_object_id: string }[] }[];
  }[];
}

/** Neighbours one hop brings per relation type: enough to see the shape, few enough to read. */
export const HOP_LIMIT = 10;

const relationTypes = new Map<string, Promise<RelationType[]>>();

function relationsOf(knId: string): Promise<RelationType[]> {
  let loaded = relationTypes.get(knId);
  if (!loaded) {
    loaded = tool<{ relation_types: RelationType[] }>('get_kn_detail', { kn_id: knId }).then((d) => d.relation_types);
    relationTypes.set(knId, loaded);
  }
  return loaded;
}

const identityCondition = (identity: Record<string, unknown>) => ({
  operation: 'and',
  sub_conditions: Object.entries(identity).map(([field, value]) => ({
    field,
    operation: '==',
    value,
    value_from: 'const',
  })),
});

/**
 * One hop from one instance (`query_instance_subgraph`): a path per relation type that touches its object
 * type, at most HOP_LIMIT neighbours each. Returns the nodes and edges found, the start node among them.
 */
export async function expandOneHop(
  knId: string,
  node: Pick<GraphNode, 'objectTypeId' | 'identity'>,
): Promise<{ nodes: GraphNode[]; edges: GraphEdge[] }> {
  const relations = (await relationsOf(knId)).filter(
    (relation) =>
      relation.source_object_type_id === node.objectTypeId || relation.target_object_type_id === node.objectTypeId,
  );
  if (relations.length === 0) return { nodes: [], edges: [] };
  const paths = relations.map((relation) => {
    const other =
      relation.source_object_type_id === node.objectTypeId
        ? relation.target_object_type_id
        : relation.source_object_type_id;
    return {
      object_types: [
        { id: node.objectTypeId, condition: identityCondition(node.identity), limit: 1 },
        { id: other, limit: HOP_LIMIT },
      ],
      relation_types: [{ relation_type_id: relation.id }],
    };
  });
  const answer = await rest<SubgraphAnswer>('kn/query_instance_subgraph', { kn_id: knId, relation_type_paths: paths });
  const names = new Map(relations.map((relation) => [relation.id, relation.name]));
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  for (const entry of answer.entries) {
    for (const object of Object.values(entry.objects)) {
      nodes.set(object.id, {
        id: object.id,
        objectTypeId: object.object_type_id,
        objectTypeName: object.object_type_name ?? object.object_type_id,
        label: object.display ?? object.id,
        identity: object.unique_identities,
      });
    }
    for (const path of entry.relation_paths) {
      for (const relation of path.relations) {
        const id = `${relation.relation_type_id}|${relation.source_object_id}|${relation.target_object_id}`;
        edges.set(id, {
          id,
          source: relation.source_object_id,
          target: relation.target_object_id,
          relationTypeId: relation.relation_type_id,
          label: names.get(relation.relation_type_id) ?? relation.relation_type_id,
        });
      }
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}
