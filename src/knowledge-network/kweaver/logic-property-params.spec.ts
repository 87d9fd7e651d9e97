import { AppException } from '../../common/errors/app.exception';
import { ObjectType } from '../knowledge-network.types';
import { dynamicParamsFor, requireLogicProperties } from './logic-property-params';

const objectType: ObjectType = {
  id: 'ot_order',
  name: 'Order',
  data_properties: [],
  primary_keys: ['id'],
  logic_properties: [
    {
      name: 'revenue',
      type: 'metric',
      parameters: [
        { name: 'order_id', type: 'string', value_from: 'property', value: 'id' },
        { name: 'start', type: 'integer', value_from: 'input' },
        { name: 'end', type: 'integer', value_from: 'input' },
      ],
    },
    { name: 'forecast', type: 'operator', parameters: [] },
  ],
};

describe('logic property parameters', () => {
  it('refuses names that are not logic properties, listing the available ones', () => {
    expect(() => requireLogicProperties(objectType, ['revenue', 'amount'])).toThrow(AppException);
    try {
      requireLogicProperties(objectType, ['amount']);
    } catch (error) {
      expect((error as AppException).status).toBe(400);
      expect((error as AppException).details).toBe(
        'properties not found or not logic properties: [amount] (available logic properties: [revenue, forecast])',
      );
    }
  });

  it('matches flat inputs to each property by parameter name', () => {
    const properties = requireLogicProperties(objectType, ['revenue', 'forecast']);
    expect(dynamicParamsFor(properties, { start: 1, end: 2, horizon: 'week', order_id: 'x' })).toEqual({
      revenue: { start: 1, end: 2 },
      forecast: { start: 1, end: 2, horizon: 'week', order_id: 'x' },
    });
  });

  it('uses per-property inputs as given and keeps hostile keys as plain data', () => {
    const properties = requireLogicProperties(objectType, ['revenue']);
    const inputs = JSON.parse('{"revenue": {"start": 5, "__proto__": {"polluted": true}}}') as Record<string, unknown>;
    const params = dynamicParamsFor(properties, inputs);
    expect(params.revenue.start).toBe(5);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(dynamicParamsFor(properties)).toEqual({ revenue: {} });
  });
});
