import { ApprovalQuestion } from './action-approval';
import { answerOf, approvalForm, approvalMessage, canonicalJson, questionDigest } from './approval-question';

const QUESTION: ApprovalQuestion = {
  knId: 'clinic',
  atId: 'create_prescription',
  actionName: '开具处方',
  actionType: 'add',
  riskLevel: 'medium',
  source: { type: 'mcp', mcp_id: 'clinic_tools', tool_name: 'create_prescription' },
  instance: { patient_id: 'P1' },
  arguments: { patient_id: 'P1', drug_id: 'DR1' },
  reason: 'requires_approval',
  language: 'en-US',
};

describe('approval question', () => {
  it('shows the action, network, instance, impact and the arguments as they will be sent', () => {
    expect(approvalMessage(QUESTION)).toBe(
      [
        'An agent wants to run this action. Approve it?',
        'Action: 开具处方 (create_prescription)',
        'Knowledge network: clinic',
        'Instance: {"patient_id":"P1"}',
        'Impact: add; risk_level=medium; the action type requires approval; runs MCP clinic_tools/create_prescription',
        'Arguments (as they will be sent):',
        '{\n  "patient_id": "P1",\n  "drug_id": "DR1"\n}',
      ].join('\n'),
    );
  });

  it('asks in Chinese for a zh-Hans caller, every line translated', () => {
    const message = approvalMessage({ ...QUESTION, language: 'zh-Hans', reason: 'high_risk' });
    expect(message).toContain('智能体请求执行以下行动，是否批准？');
    expect(message).toContain('行动: 开具处方');
    expect(message).toContain('高风险');
    expect(message).not.toMatch(/Approve|Action:|Instance|Impact|Arguments/);
    expect(approvalForm('zh-Hans').properties.approve.title).toBe('批准');
  });

  it('shortens very long arguments in the message', () => {
    const message = approvalMessage({ ...QUESTION, arguments: { note: 'x'.repeat(5000) } });
    expect(message.length).toBeLessThan(2500);
    expect(message.endsWith('…')).toBe(true);
  });

  it('reads only an accepted, ticked form as an approval', () => {
    expect(answerOf({ action: 'accept', content: { approve: true } })).toBe('approved');
    for (const answer of [
      { action: 'accept', content: { approve: false } },
      { action: 'accept', content: { approve: 'true' } },
      { action: 'accept' },
      { action: 'decline' },
      { action: 'cancel' },
      undefined,
      'yes',
    ]) {
      expect(answerOf(answer)).toBe('declined');
    }
  });

  it('identifies the same approval whatever the key order, and a different one for other arguments', () => {
    const reordered = { ...QUESTION, arguments: { drug_id: 'DR1', patient_id: 'P1' } };
    expect(questionDigest(reordered)).toBe(questionDigest(QUESTION));
    expect(questionDigest({ ...QUESTION, arguments: { patient_id: 'P1', drug_id: 'DR2' } })).not.toBe(
      questionDigest(QUESTION),
    );
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
