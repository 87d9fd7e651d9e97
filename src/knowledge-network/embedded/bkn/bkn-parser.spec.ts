import { BknFormatError } from './bkn-format.error';
import { BknParser } from './bkn-parser';

const parser = new BknParser();

const ENGLISH_OBJECT = `---
type: object_type
id: pod
name: Pod
tags: [k8s]
---

## ObjectType: Pod

The smallest deployable unit.

### Data Properties

| Name | Display Name | Type | Description | Mapped Field |
|------|--------------|------|-------------|--------------|
| pod_name | Pod Name | string | Name | pod_name |
| restarts | Restarts | Integer | Restart count | restarts |
| labels | Labels | json | Labels | labels |

### Keys

Primary Keys: pod_name
Display Key: pod_name
Incremental Key:

### Logic Properties

#### restart_trend

- **Display**: Restart trend
- **Type**: operator
- **Source**: trend_builder (operator)
- **Description**: Restarts over time

| Parameter | Type | Source | Binding | Description |
|-----------|------|--------|---------|-------------|
| pod | string | property | pod_name | The pod |
| window | string | input | - | Time window |
| step | integer | const | 60 | Seconds |

### Data Source

| Type | ID | Name |
|------|-----|------|
| data_view | pods_view | Pods |
`;

const CHINESE_OBJECT = `---
type: object_type
id: patient
name: 患者
---

## 对象类型：患者

就诊的患者。

### 数据属性

| 名称 | 显示名称 | 类型 | 描述 | 映射字段 |
|------|----------|------|------|----------|
| patient_id | 编号 | string | 主键 | patient_id |
| age | 年龄 | integer | 年龄 | age |

### 键定义

主键：patient_id
显示键：patient_id
`;

const NEW_ACTION = `---
type: action_type
id: restart_pod
name: Restart Pod
---

## ActionType: Restart Pod

### Bound Object

| Bound Object | Action Type |
|--------------|-------------|
| pod | modify |

### Tool Configuration

| Type | MCP ID | Tool Name |
|------|--------|-----------|
| mcp | k8s_mcp | restart |

### Parameter Binding

| Parameter | Type | Source | Binding | Description |
|-----------|------|--------|---------|-------------|
| name | string | property | pod_name | Pod |
| force | boolean | const | true | Force |
| reason | string | input | - | Why |
`;

const OLD_ACTION = `---
type: action_type
id: restart_pod
name: 重启Pod
action_type: modify
---

## ActionType: 重启Pod

### Bound Object

| Bound Object |
|--------------|
| pod |

### Action Source

| Type | BoxID | ToolID | McpID | ToolName |
|------|-------|--------|-------|----------|
| tool | k8s_toolbox | kubectl_delete_pod |  |  |

### Parameter Binding

| Name | Type | Source | Operation | ValueFrom | Value | Description |
|------|------|--------|-----------|-----------|-------|-------------|
| pod_name | string | property |  |  | pod_name | Pod 名称 |
| grace_period | integer | Query |  | const | 30 | 秒 |
`;

function failure(run: () => unknown): BknFormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof BknFormatError) return error;
    throw error;
  }
  throw new Error('expected a BknFormatError');
}

describe('BknParser', () => {
  it('reads an English object type with keys, logic properties and data source', () => {
    const { type } = parser.objectType('net/object_types/pod.bkn', ENGLISH_OBJECT);
    expect(type).toMatchObject({
      id: 'pod',
      name: 'Pod',
      comment: 'The smallest deployable unit.',
      tags: ['k8s'],
    });
    expect(type.data_properties.map((p) => [p.name, p.type])).toEqual([
      ['pod_name', 'string'],
      ['restarts', 'integer'],
      ['labels', 'json'],
    ]);
    expect(type.primary_keys).toEqual(['pod_name']);
    expect(type.data_source).toEqual({ type: 'data_view', id: 'pods_view', name: 'Pods' });
    expect(type.logic_properties).toEqual([
      {
        name: 'restart_trend',
        display_name: 'Restart trend',
        type: 'operator',
        comment: 'Restarts over time',
        data_source: { type: 'operator', id: 'trend_builder' },
        parameters: [
          {
            name: 'pod',
            type: 'string',
            value_from: 'property',
            value: 'pod_name',
            comment: 'The pod',
          },
          { name: 'window', type: 'string', value_from: 'input', comment: 'Time window' },
          { name: 'step', type: 'integer', value_from: 'const', value: 60, comment: 'Seconds' },
        ],
      },
    ]);
  });

  it('reads Chinese headings, columns and key lines', () => {
    const { type } = parser.objectType('net/object_types/patient.bkn', CHINESE_OBJECT);
    expect(type).toMatchObject({
      id: 'patient',
      name: '患者',
      comment: '就诊的患者。',
      primary_keys: ['patient_id'],
      display_key: 'patient_id',
    });
    expect(type.data_properties.map((p) => [p.name, p.display_name, p.type])).toEqual([
      ['patient_id', '编号', 'string'],
      ['age', '年龄', 'integer'],
    ]);
  });

  it('reads the Tool Configuration / Parameter Binding layout', () => {
    const { type } = parser.actionType('net/action_types/restart.bkn', NEW_ACTION);
    expect(type).toMatchObject({
      object_type_id: 'pod',
      action_type: 'modify',
      action_source: { type: 'mcp', mcp_id: 'k8s_mcp', tool_name: 'restart' },
    });
    expect(type.parameters).toEqual([
      { name: 'name', type: 'string', value_from: 'property', value: 'pod_name', comment: 'Pod' },
      { name: 'force', type: 'boolean', value_from: 'const', value: true, comment: 'Force' },
      { name: 'reason', type: 'string', value_from: 'input', comment: 'Why' },
    ]);
  });

  it('reads the older Action Source / Name-ValueFrom-Value layout', () => {
    const { type } = parser.actionType('net/action_types/restart.bkn', OLD_ACTION);
    expect(type).toMatchObject({
      object_type_id: 'pod',
      action_type: 'modify',
      action_source: { type: 'tool', box_id: 'k8s_toolbox', tool_id: 'kubectl_delete_pod' },
    });
    expect(type.parameters).toEqual([
      {
        name: 'pod_name',
        type: 'string',
        value_from: 'property',
        value: 'pod_name',
        comment: 'Pod 名称',
      },
      { name: 'grace_period', type: 'integer', value_from: 'const', value: 30, comment: '秒' },
    ]);
  });

  it('reads direct and data_view relations', () => {
    const direct = parser.relationType(
      'r.bkn',
      '---\ntype: relation_type\nid: r\nname: R\n---\n\n## 关系类型：R\n\n### 关联定义\n\n| 起点 | 终点 | 类型 |\n|---|---|---|\n| a | b | direct |\n\n### 映射规则\n\n| 起点属性 | 终点属性 |\n|---|---|\n| x | y |\n',
    );
    expect(direct.mapping).toEqual({
      kind: 'direct',
      pairs: [{ source: 'x', target: 'y', line: 19 }],
    });
    const view = parser.relationType(
      'v.bkn',
      '---\ntype: relation_type\nid: v\n---\n\n## RelationType: V\n\n### Endpoint\n\n| Source | Target | Type |\n|---|---|---|\n| a | b | data_view |\n\n### Mapping View\n\n| Type | ID |\n|---|---|\n| data_view | likes |\n\n### Source Mapping\n\n| Source Property | View Property |\n|---|---|\n| id | uid |\n\n### Target Mapping\n\n| View Property | Target Property |\n|---|---|\n| pid | id |\n',
    );
    expect(view.mapping).toMatchObject({
      kind: 'data_view',
      viewId: 'likes',
      source: [{ objectProperty: 'id', viewProperty: 'uid' }],
      target: [{ viewProperty: 'pid', objectProperty: 'id' }],
    });
  });

  it('names file and line: unknown data type on its table row', () => {
    const broken = ENGLISH_OBJECT.replace('| restarts | Restarts | Integer |', '| restarts | Restarts | integr |');
    const error = failure(() => parser.objectType('net/object_types/pod.bkn', broken));
    expect(error.message).toBe('net/object_types/pod.bkn:17: unknown data type "integr" for property "restarts"');
  });

  it('names file and line: missing frontmatter, bad YAML, wrong type, missing section, unknown key', () => {
    expect(failure(() => parser.objectType('a.bkn', '## ObjectType: X\n')).message).toBe(
      'a.bkn:1: missing YAML frontmatter (a block between --- lines)',
    );
    expect(failure(() => parser.objectType('b.bkn', '---\ntype: object_type\nid: [x\n---\n')).message).toMatch(
      /^b\.bkn:\d+: invalid YAML frontmatter/,
    );
    expect(
      failure(() => parser.objectType('c.bkn', ENGLISH_OBJECT.replace('type: object_type', 'type: relation_type')))
        .message,
    ).toMatch(/^c\.bkn:2: frontmatter "type" must be "object_type"/);
    const noProperties = '---\ntype: object_type\nid: x\n---\n\n## ObjectType: X\n\n### Keys\n\nPrimary Keys: id\n';
    expect(failure(() => parser.objectType('d.bkn', noProperties)).message).toBe(
      'd.bkn:6: missing section "### Data Properties"',
    );
    const badKey = ENGLISH_OBJECT.replace('Primary Keys: pod_name', 'Primary Keys: pod_id');
    expect(failure(() => parser.objectType('e.bkn', badKey)).message).toBe(
      'e.bkn:22: primary key "pod_id" is not a data property',
    );
    const badSource = NEW_ACTION.replace('| reason | string | input |', '| reason | string | magic |');
    expect(failure(() => parser.actionType('f.bkn', badSource)).message).toMatch(
      /^f\.bkn:27: parameter "reason": source must be property, input or const/,
    );
  });
});
