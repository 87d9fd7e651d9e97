import * as path from 'node:path';
import { MetricType } from '../knowledge-network.types';
import { rankMetrics } from './metric-ranking';
import { NetworkLoader } from './network-loader';

const clinic = (): MetricType[] => {
  const loader = new NetworkLoader(path.resolve(__dirname, '../../../examples/networks'));
  return loader
    .load(path.join(loader.folders().find((f) => f.endsWith('clinic'))!))
    .schema.metricTypes.map((entry) => entry.metric);
};

describe('rankMetrics (embedded metric recall)', () => {
  const metrics = clinic();

  it('direct recall keeps matching metrics, best first', () => {
    expect(rankMetrics(metrics, { query: '糖尿病', limit: 10 }).map((m) => m.id)).toEqual(['diabetes_patient_ratio']);
    expect(rankMetrics(metrics, { query: '月就诊量', limit: 10 })[0].id).toBe('monthly_visit_count');
    expect(rankMetrics(metrics, { query: 'kubernetes', limit: 10 })).toEqual([]);
  });

  it('expansion recall keeps every metric scoped to the given object types, matches first', () => {
    const ids = rankMetrics(metrics, { query: '费用', limit: 10, object_type_ids: ['visit'] }).map((m) => m.id);
    expect(ids).toEqual(['average_visit_fee', 'monthly_visit_count']);
    expect(rankMetrics(metrics, { query: '费用', limit: 1, object_type_ids: ['visit'] })).toHaveLength(1);
    expect(rankMetrics(metrics, { query: 'x', limit: 0 })).toEqual([]);
  });
});
