import { mapBoundParameter, mapExport, mapSummary } from './bkn-schema.mapper';

const exportBody = {
  id: 'kn-001',
  name: 'Supply chain',
  comment: 'orders and suppliers',
  concept_groups: [
    { id: 'cg-1', name: 'Trade', object_types: [{ id: 'ot_order' }, 'ot_supplier'] },
    { id: 'cg-2', name: 'Other', object_type_ids: ['ot_order'] },
  ],
  object_types: [
    {
      module_type: 'object_type',
      id: 'ot_order',
      name: 'Order',
      comment: '',
      tags: ['sales'],
      data_source: { type: 'data_view', id: 'dv-1', name: 'orders' },
      data_properties: [
        {
          name: 'id',
          display_name: 'ID',
          type: 'string',
          mapped_field: { name: 'order_id' },
          condition_operations: ['==', 'in', 'regex'],
        },
        { name: 'amount', type: 'decimal', comment: 'total', condition_operations: ['>', '<'] },
      ],
      logic_properties: [
        {
          name: 'revenue',
          type: 'metric',
          data_source: { type: 'metric', id: 'm-1' },
          parameters: [
            { name: 'order_id', type: 'string', value_from: 'property', value: 'id' },
            { name: 'start', type: 'integer', value_from: 'input' },
          ],
        },
      ],
      primary_keys: ['id'],
      display_key: 'id',
    },
  ],
  relation_types: [
    {
      id: 'rt_1',
      name: 'supplied by',
      source_object_type_id: 'ot_order',
      target_object_type_id: 'ot_supplier',
      type: 'direct',
    },
    { id: 'rt_2', name: 'odd', source_object_type_id: 'a', target_object_type_id: 'b', type: 'graph' },
  ],
  action_types: [
    {
      id: 'at_1',
      name: 'Restock',
      object_type_id: 'ot_order',
      action_type: 'modify',
      action_source: { type: 'tool', box_id: 'box-1', tool_id: 'tool-1', mcp_id: '' },
      parameters: [{ name: 'qty', type: 'integer', source: 'const', value: 5 }],
    },
  ],
};

describe('bkn-backend schema mapping', () => {
  it('maps a BKN export onto KnSchema', () => {
    const schema = mapExport('kn-001', exportBody);
    expect(schema.id).toBe('kn-001');
    expect(schema.name).toBe('Supply chain');
    expect(schema.comment).toBe('orders and suppliers');
    expect(schema.object_types).toEqual([
      {
        id: 'ot_order',
        name: 'Order',
        tags: ['sales'],
        data_source: { type: 'data_view', id: 'dv-1', name: 'orders' },
        data_properties: [
          {
            name: 'id',
            display_name: 'ID',
            type: 'string',
            mapped_field: 'order_id',
            condition_operations: ['==', 'in'],
          },
          { name: 'amount', type: 'decimal', comment: 'total', condition_operations: ['>', '<'] },
        ],
        logic_properties: [
          {
            name: 'revenue',
            type: 'metric',
            data_source: { type: 'metric', id: 'm-1' },
            parameters: [
              { name: 'order_id', type: 'string', value_from: 'property', value: 'id' },
              { name: 'start', type: 'integer', value_from: 'input' },
            ],
          },
        ],
        primary_keys: ['id'],
        display_key: 'id',
      },
    ]);
    expect(schema.relation_types).toEqual([
      {
        id: 'rt_1',
        name: 'supplied by',
        tags: [],
        source_object_type_id: 'ot_order',
        target_object_type_id: 'ot_supplier',
        type: 'direct',
      },
      { id: 'rt_2', name: 'odd', tags: [], source_object_type_id: 'a', target_object_type_id: 'b' },
    ]);
    expect(schema.action_types).toEqual([
      {
        id: 'at_1',
        name: 'Restock',
        tags: [],
        object_type_id: 'ot_order',
        action_type: 'modify',
        action_source: { type: 'tool', box_id: 'box-1', tool_id: 'tool-1' },
        parameters: [{ name: 'qty', type: 'integer', value_from: 'const', value: 5 }],
      },
    ]);
    expect(schema.concept_groups).toEqual([
      { id: 'cg-1', name: 'Trade', object_type_ids: ['ot_order', 'ot_supplier'] },
      { id: 'cg-2', name: 'Other', object_type_ids: ['ot_order'] },
    ]);
  });

  it('reads an empty or malformed export as an empty schema named after the kn_id', () => {
    expect(mapExport('kn-x', undefined)).toEqual({
      id: 'kn-x',
      name: 'kn-x',
      object_types: [],
      relation_types: [],
      action_types: [],
      concept_groups: [],
    });
    const odd = mapExport('kn-x', { object_types: 'nope', relation_types: [null, 3, { id: 'rt' }] });
    expect(odd.object_types).toEqual([]);
    expect(odd.relation_types).toEqual([
      { id: 'rt', name: '', tags: [], source_object_type_id: '', target_object_type_id: '' },
    ]);
  });

  it('treats a parameter without a known source as an input', () => {
    expect(mapBoundParameter({ name: 'p', type: 'string', value_from: 'llm' })).toEqual({
      name: 'p',
      type: 'string',
      value_from: 'input',
    });
    expect(mapBoundParameter({ name: 'p', value: null })).toEqual({ name: 'p', type: 'string', value_from: 'input' });
  });

  it('maps a network list entry, taking counts from statistics when present', () => {
    expect(
      mapSummary({
        id: 'kn-1',
        name: 'A',
        description: 'd',
        statistics: { object_types_total: 3, relation_types_total: 1, action_types_total: 2 },
      }),
    ).toEqual({
      id: 'kn-1',
      name: 'A',
      comment: 'd',
      object_type_count: 3,
      relation_type_count: 1,
      action_type_count: 2,
    });
    expect(mapSummary({ id: 'kn-2', name: 'B' })).toEqual({
      id: 'kn-2',
      name: 'B',
      object_type_count: 0,
      relation_type_count: 0,
      action_type_count: 0,
    });
  });
});
