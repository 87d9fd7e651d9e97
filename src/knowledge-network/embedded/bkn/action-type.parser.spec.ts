import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../../../project-root';
import { BknFormatError } from './bkn-format.error';
import { BknParser } from './bkn-parser';

const parser = new BknParser();

const example = (network: string, file: string): string =>
  readFileSync(path.join(projectRoot(), 'examples', 'networks', network, 'action_types', file), 'utf8');

/** An action type file whose frontmatter extras and sections the test fills in. */
function actionFile(frontmatter: string, sections: string): string {
  return `---
type: action_type
id: review_order
name: Review Order
${frontmatter}---

## ActionType: Review Order

### Bound Object

| Bound Object | Action Type |
|--------------|-------------|
| order | modify |

${sections}
### Tool Configuration

| Type | MCP ID | Tool Name |
|------|--------|-----------|
| mcp | shop | review |
`;
}

function failure(text: string): string {
  try {
    parser.actionType('net/action_types/review.bkn', text);
  } catch (error) {
    if (error instanceof BknFormatError) return error.message;
    throw error;
  }
  throw new Error('expected a BknFormatError');
}

describe('ActionTypeParser: execution governance', () => {
  it('reads the clinic prescription: approval flags and the relation pre-condition table', () => {
    const { type } = parser.actionType('create_prescription.bkn', example('clinic', 'create_prescription.bkn'));
    expect(type).toMatchObject({ enabled: true, risk_level: 'medium', requires_approval: true });
    expect(type.pre_conditions).toEqual([
      {
        object_type_id: 'patient',
        relation_type_id: 'patient_diagnosed_with',
        operation: 'exist',
        message: '患者须有明确诊断后才能开具处方',
      },
    ]);
    expect(type.trigger_condition).toBeUndefined();
  });

  it('reads the k8s restart trigger condition from its YAML block', () => {
    const { type } = parser.actionType('restart_deployment.bkn', example('k8s_ops', 'restart_deployment.bkn'));
    expect(type.trigger_condition).toEqual([
      { object_type_id: 'deployment', field: 'status', operation: 'in', value: ['Degraded', 'Unavailable'] },
    ]);
  });

  it('leaves every governance field out when the file declares none', () => {
    const { type } = parser.actionType('a.bkn', actionFile('', ''));
    for (const field of ['enabled', 'risk_level', 'requires_approval', 'trigger_condition', 'pre_conditions']) {
      expect(type).not.toHaveProperty(field);
    }
  });

  it('reads every operator form of a Chinese 前置条件 table', () => {
    const table = `### 前置条件

| 对象 | 检查项 | 条件 | 提示 |
|------|--------|------|------|
| order | status | == active | 订单须为有效状态 |
|  | amount | > 0 | 金额须大于 0 |
| order | channel | in [web, app] |  |
| order | region | not_in north, south |  |
| order | items | range [1, 10] |  |
| order | cancelled_at | not_exist |  |
| order | relation:order_of_customer | exist | 订单须有客户 |
| order | priority | >= 2 |  |
`;
    const { type } = parser.actionType('a.bkn', actionFile('enabled: false\nrisk_level: HIGH\n', table));
    expect(type).toMatchObject({ enabled: false, risk_level: 'high' });
    expect(type.pre_conditions).toEqual([
      { object_type_id: 'order', field: 'status', operation: '==', value: 'active', message: '订单须为有效状态' },
      { object_type_id: 'order', field: 'amount', operation: '>', value: 0, message: '金额须大于 0' },
      { object_type_id: 'order', field: 'channel', operation: 'in', value: ['web', 'app'] },
      { object_type_id: 'order', field: 'region', operation: 'not_in', value: ['north', 'south'] },
      { object_type_id: 'order', field: 'items', operation: 'range', value: [1, 10] },
      { object_type_id: 'order', field: 'cancelled_at', operation: 'not_exist' },
      {
        object_type_id: 'order',
        relation_type_id: 'order_of_customer',
        operation: 'exist',
        message: '订单须有客户',
      },
      { object_type_id: 'order', field: 'priority', operation: '>=', value: 2 },
    ]);
  });

  it('flattens an `and` YAML trigger condition and reads conditions lists', () => {
    const yaml = `### Trigger Condition

\`\`\`yaml
condition:
  operation: and
  sub_conditions:
    - { field: status, operation: "==", value: open }
    - { relation_type_id: order_of_customer, operation: exist, message: needs a customer }
\`\`\`

\`\`\`yaml
conditions:
  - { object_type_id: order, field: total, operation: "<=", value: 500 }
\`\`\`
`;
    const { type } = parser.actionType('a.bkn', actionFile('', yaml));
    expect(type.trigger_condition).toEqual([
      { object_type_id: 'order', field: 'status', operation: '==', value: 'open' },
      {
        object_type_id: 'order',
        relation_type_id: 'order_of_customer',
        operation: 'exist',
        message: 'needs a customer',
      },
      { object_type_id: 'order', field: 'total', operation: '<=', value: 500 },
    ]);
  });

  it('names file and line for frontmatter values it cannot use', () => {
    expect(failure(actionFile('enabled: "yes"\n', ''))).toBe(
      'net/action_types/review.bkn:5: frontmatter "enabled" must be true or false (found "yes")',
    );
    expect(failure(actionFile('risk_level: extreme\n', ''))).toBe(
      'net/action_types/review.bkn:5: frontmatter "risk_level" must be low, medium or high (found "extreme")',
    );
    expect(failure(actionFile('enabled: true\nrequires_approval: 1\n', ''))).toBe(
      'net/action_types/review.bkn:6: frontmatter "requires_approval" must be true or false (found 1)',
    );
  });

  it('names the table row of a condition it cannot evaluate', () => {
    const row = (cells: string) =>
      failure(
        actionFile('', `### Pre-conditions\n\n| Object | Check | Condition | Message |\n|---|---|---|---|\n${cells}\n`),
      );
    // The section starts on line 15: header on 17, separator, then the row on line 19.
    expect(row('| order | status | ~= x | |')).toMatch(
      /^net\/action_types\/review\.bkn:19: unknown condition operation "~="/,
    );
    expect(row('| order | relation:order_of_customer | == 1 | |')).toBe(
      'net/action_types/review.bkn:19: a relation check supports exist and not_exist only (found "==")',
    );
    expect(row('| customer | status | exist | |')).toBe(
      'net/action_types/review.bkn:19: condition on object type "customer": only the bound object type "order" can be checked',
    );
    expect(row('| order | status | exist yes | |')).toBe('net/action_types/review.bkn:19: "exist" takes no value');
    expect(row('| order | total | range [1] | |')).toBe('net/action_types/review.bkn:19: "range" needs [min, max]');
    expect(row('| order | total | > | |')).toBe('net/action_types/review.bkn:19: ">" needs a value');
    expect(row('| order |  | exist | |')).toMatch(
      /^net\/action_types\/review\.bkn:19: a condition checks either a property/,
    );
  });

  it('names the line of a broken or unsupported YAML condition and of an empty section', () => {
    const block = (body: string) => failure(actionFile('', `### Trigger Condition\n\n\`\`\`yaml\n${body}\n\`\`\`\n`));
    // The fence opens on line 17, so the YAML starts on line 18.
    expect(block('condition:\n  field: [status')).toMatch(
      /^net\/action_types\/review\.bkn:2\d: invalid YAML condition/,
    );
    expect(block('condition: { operation: or, sub_conditions: [] }')).toBe(
      'net/action_types/review.bkn:18: "or" is not supported: every listed check must hold',
    );
    expect(failure(actionFile('', '### Trigger Condition\n\nOnly when it is late.\n'))).toBe(
      'net/action_types/review.bkn:15: section "Trigger Condition" needs a table (Object | Check | Condition | Message) or a YAML block',
    );
  });
});
