import { ActionType, KnSchema, ObjectType, RelationType } from '../knowledge-network/knowledge-network.types';

/**
 * kn_search / search_schema output shapes (upstream §2.4). Brief (`schema_brief`): ids, names, comment,
 * and each property's name, type and operations (logic properties with their data source and
 * parameters); full adds concept_type, tags, data source, keys and every property's comment.
 */
export function objectTypeShape(type: ObjectType, brief = false): Record<string, unknown> {
  if (brief) {
    return {
      concept_id: type.id,
      concept_name: type.name,
      comment: type.comment,
      data_properties: type.data_properties.map(({ name, type: kind, condition_operations }) => ({
        name,
        type: kind,
        condition_operations,
      })),
      logic_properties: type.logic_properties.map(({ name, type: kind, data_source, parameters }) => ({
        name,
        type: kind,
        data_source,
        parameters,
      })),
    };
  }
  return {
    concept_type: 'object_type',
    concept_id: type.id,
    concept_name: type.name,
    comment: type.comment,
    tags: type.tags ?? [],
    data_source: type.data_source,
    primary_keys: type.primary_keys,
    display_key: type.display_key,
    data_properties: type.data_properties.map((property) => ({
      name: property.name,
      display_name: property.display_name,
      type: property.type,
      comment: property.comment,
      condition_operations: property.condition_operations,
    })),
    logic_properties: type.logic_properties.map((property) => ({
      name: property.name,
      display_name: property.display_name,
      type: property.type,
      comment: property.comment,
      data_source: property.data_source,
      parameters: property.parameters,
    })),
  };
}

export function relationTypeShape(type: RelationType, brief = false): Record<string, unknown> {
  if (brief) {
    return {
      concept_id: type.id,
      concept_name: type.name,
      source_object_type_id: type.source_object_type_id,
      target_object_type_id: type.target_object_type_id,
    };
  }
  return {
    concept_type: 'relation_type',
    concept_id: type.id,
    concept_name: type.name,
    comment: type.comment,
    source_object_type_id: type.source_object_type_id,
    target_object_type_id: type.target_object_type_id,
  };
}

export function actionTypeShape(type: ActionType, schema: KnSchema): Record<string, unknown> {
  return {
    id: type.id,
    name: type.name,
    object_type_id: type.object_type_id,
    object_type_name: schema.object_types.find((object) => object.id === type.object_type_id)?.name ?? '',
    comment: type.comment,
    tags: type.tags ?? [],
    kn_id: schema.id,
  };
}
