import { mapActionType } from './bkn-schema.mapper';

const BASE = { id: 'restart', name: 'Restart', object_type_id: 'deployment', parameters: [] };

describe('mapActionType: execution governance from bkn-backend', () => {
  it('maps enabled, risk_level, requires_approval and both condition lists', () => {
    const type = mapActionType({
      ...BASE,
      enabled: false,
      risk_level: 'HIGH',
      requires_approval: true,
      condition: {
        operation: 'and',
        sub_conditions: [
          { object_type_id: 'deployment', field: 'status', operation: 'in', value: ['Degraded'], value_from: 'const' },
          { field: 'replicas', operation: '>', value: 0 },
        ],
      },
      pre_conditions: [{ relation_type_id: 'deployment_has_pod', operation: 'exist', message: 'needs pods' }],
    });
    expect(type).toMatchObject({ enabled: false, risk_level: 'high', requires_approval: true });
    expect(type.trigger_condition).toEqual([
      { object_type_id: 'deployment', field: 'status', operation: 'in', value: ['Degraded'] },
      { field: 'replicas', operation: '>', value: 0 },
    ]);
    expect(type.pre_conditions).toEqual([
      { relation_type_id: 'deployment_has_pod', operation: 'exist', message: 'needs pods' },
    ]);
  });

  it('leaves absent or unusable flags out, and keeps an unreadable condition so execution refuses it', () => {
    const type = mapActionType({ ...BASE, enabled: 'no', risk_level: 'extreme', trigger_condition: ['status'] });
    expect(type).not.toHaveProperty('enabled');
    expect(type).not.toHaveProperty('risk_level');
    expect(type).not.toHaveProperty('pre_conditions');
    expect(type.trigger_condition).toEqual([{ operation: '' }]);
    expect(mapActionType(BASE)).not.toHaveProperty('trigger_condition');
  });
});
