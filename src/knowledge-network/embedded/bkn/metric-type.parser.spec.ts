import { BknFormatError } from './bkn-format.error';
import { BknParser } from './bkn-parser';

const parser = new BknParser();

const METRIC = `---
type: metric
id: diabetes_patient_ratio
name: 糖尿病患者占比
metric_type: derived
scope_type: object_type
scope_ref: patient
unit: "%"
---

## 指标: 糖尿病患者占比

主要诊断为糖尿病的患者占比。

### 计算公式

\`\`\`sql
COUNT(patient_id WHERE primary_diagnosis_id IN ('DX001')) / COUNT(patient_id)
\`\`\`

### 分析维度

| 名称 | 显示名 | 描述 |
|------|--------|------|
| district | 所在区 | 按区 |
`;

describe('metric types (metrics/*.bkn)', () => {
  it('reads frontmatter, description, formula and dimensions, with Chinese headings', () => {
    const { metric } = parser.metricType('metrics/ratio.bkn', METRIC);
    expect(metric).toEqual({
      id: 'diabetes_patient_ratio',
      name: '糖尿病患者占比',
      comment: '主要诊断为糖尿病的患者占比。',
      metric_type: 'derived',
      scope_type: 'object_type',
      scope_ref: 'patient',
      unit: '%',
      calculation_formula: "COUNT(patient_id WHERE primary_diagnosis_id IN ('DX001')) / COUNT(patient_id)",
      analysis_dimensions: [{ name: 'district', display_name: '所在区', comment: '按区' }],
    });
  });

  it('takes a network-wide metric with the formula in frontmatter', () => {
    const text = '---\ntype: metric\nid: m\nname: M\nscope_type: network\ncalculation_formula: COUNT(*)\n---\n';
    expect(parser.metricType('metrics/m.bkn', text).metric).toMatchObject({
      scope_type: 'network',
      scope_ref: '',
      metric_type: 'atomic',
      calculation_formula: 'COUNT(*)',
    });
  });

  it('names the file and the problem: no formula, a bad scope, the wrong type', () => {
    const noFormula = METRIC.replace(/### 计算公式[\s\S]*?```\n```?/, '').replace(/```sql[\s\S]*?```/, '');
    expect(() => parser.metricType('metrics/a.bkn', noFormula)).toThrow(/metrics\/a\.bkn:\d+: a metric needs/);
    expect(() =>
      parser.metricType('metrics/b.bkn', METRIC.replace('scope_type: object_type', 'scope_type: team')),
    ).toThrow(/scope_type" must be object_type or network/);
    expect(() => parser.metricType('metrics/c.bkn', METRIC.replace('scope_ref: patient\n', ''))).toThrow(
      /scope_ref" must name the object type/,
    );
    expect(() => parser.metricType('metrics/d.bkn', METRIC.replace('type: metric', 'type: object_type'))).toThrow(
      BknFormatError,
    );
  });
});
