import { isLayered, mergeFlatArguments, mergeLayeredArguments } from './action-arguments';

const BOOKING_SPEC = {
  parameters: [
    { name: 'dept_id', in: 'path' },
    { name: 'channel', in: 'query' },
    { name: 'X-Request-Source', in: 'header' },
  ],
};

describe('action arguments', () => {
  it('puts the fixed values over the caller’s and names those it replaced', () => {
    const merged = mergeFlatArguments(
      { drug_id: 'DR1', clinic_code: 'ELSEWHERE', patient_id: 'P1' },
      { patient_id: 'P1', clinic_code: 'HZ-CLINIC-001', patient_name: '张三' },
    );
    expect(merged.arguments).toEqual({
      drug_id: 'DR1',
      clinic_code: 'HZ-CLINIC-001',
      patient_id: 'P1',
      patient_name: '张三',
    });
    // patient_id was sent with the fixed value itself: applied, not overridden.
    expect(merged.fixed_arguments).toEqual({
      applied: ['patient_id', 'clinic_code', 'patient_name'],
      overridden: ['clinic_code'],
    });
  });

  it('drops the caller’s value for a fixed argument the instance leaves empty', () => {
    const merged = mergeFlatArguments({ phone: '+1 555 0100', note: 'x' }, { phone: null });
    expect(merged.arguments).toEqual({ note: 'x' });
    expect(merged.fixed_arguments).toEqual({ applied: ['phone'], overridden: ['phone'] });
  });

  it('never lets a caller key reach the prototype', () => {
    const caller = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const merged = mergeFlatArguments(caller, { b: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged.arguments.b).toBe(2);
  });

  it('recognises layered arguments only when every key is a location holding an object', () => {
    expect(isLayered({ path: { dept_id: 'D1' }, body: { a: 1 } })).toBe(true);
    expect(isLayered({ path: 'D1' })).toBe(false);
    expect(isLayered({ path: { dept_id: 'D1' }, dept_id: 'D1' })).toBe(false);
    expect(isLayered({})).toBe(false);
  });

  it('places flat toolbox arguments by the api_spec and merges each location’s fixed values', () => {
    const merged = mergeLayeredArguments(
      { dept_id: 'D01', channel: 'app', 'X-Request-Source': 'crm', appointment_date: '2025-07-01' },
      { channel: 'ai_agent', patient_id: 'P1' },
      BOOKING_SPEC,
    );
    expect(merged.arguments).toEqual({
      header: { 'X-Request-Source': 'crm' },
      path: { dept_id: 'D01' },
      query: { channel: 'ai_agent' },
      body: { appointment_date: '2025-07-01', patient_id: 'P1' },
    });
    expect(merged.fixed_arguments).toEqual({
      applied: ['query.channel', 'body.patient_id'],
      overridden: ['query.channel'],
    });
  });

  it('takes layered toolbox arguments as given', () => {
    const merged = mergeLayeredArguments(
      { path: { dept_id: 'D02' }, body: { patient_id: 'P9', appointment_date: '2025-08-01' } },
      { patient_id: 'P1' },
      BOOKING_SPEC,
    );
    expect(merged.arguments).toEqual({
      header: {},
      path: { dept_id: 'D02' },
      query: {},
      body: { patient_id: 'P1', appointment_date: '2025-08-01' },
    });
    expect(merged.fixed_arguments.overridden).toEqual(['body.patient_id']);
  });
});
