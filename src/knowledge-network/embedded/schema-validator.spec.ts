import { ActionCondition, ObjectType } from '../knowledge-network.types';
import { ParsedSchema } from './bkn/bkn-definitions';
import { SchemaValidator } from './schema-validator';

const objectType = (id: string, properties: string[]): ObjectType => ({
  id,
  name: id,
  data_properties: properties.map((name) => ({ name, type: 'string', condition_operations: [] })),
  logic_properties: [],
  primary_keys: [properties[0]],
});

function schemaWith(conditions: { trigger?: ActionCondition[]; pre?: ActionCondition[] }): ParsedSchema {
  return {
    network: { id: 'n', name: 'n', tags: [], origin: { file: 'network.bkn', line: 1 } },
    objectTypes: [
      { type: objectType('order', ['order_id', 'status']), origin: { file: 'order.bkn', line: 6 } },
      { type: objectType('customer', ['customer_id']), origin: { file: 'customer.bkn', line: 6 } },
    ],
    relationTypes: [
      {
        type: { id: 'order_of_customer', name: 'r', source_object_type_id: 'order', target_object_type_id: 'customer' },
        mapping: { kind: 'direct', pairs: [] },
        origin: { file: 'r.bkn', line: 6 },
        endpointLine: 12,
      },
    ],
    actionTypes: [
      {
        type: {
          id: 'review',
          name: 'Review',
          object_type_id: 'order',
          parameters: [],
          trigger_condition: conditions.trigger,
          pre_conditions: conditions.pre,
        },
        origin: { file: 'action_types/review.bkn', line: 7 },
        boundLine: 13,
      },
    ],
    conceptGroups: [],
    metricTypes: [],
  };
}

describe('SchemaValidator: action conditions', () => {
  const validator = new SchemaValidator();

  it('accepts conditions on the bound type’s properties and relations', () => {
    const schema = schemaWith({
      trigger: [{ field: 'status', operation: 'exist' }],
      pre: [{ relation_type_id: 'order_of_customer', operation: 'exist' }],
    });
    expect(() => validator.validate(schema)).not.toThrow();
  });

  it('names the action file for an unknown property or a relation that does not touch the bound type', () => {
    expect(() => validator.validate(schemaWith({ trigger: [{ field: 'state', operation: 'exist' }] }))).toThrow(
      'action_types/review.bkn:7: condition checks "state", which is not a property of order',
    );
    expect(() =>
      validator.validate(schemaWith({ pre: [{ relation_type_id: 'customer_of_order', operation: 'exist' }] })),
    ).toThrow('action_types/review.bkn:7: condition relation "customer_of_order" is not a relation type of order');
  });
});
