import { createHash } from 'node:crypto';
import type { Language } from '../config/i18n.config';
import type { ApprovalAnswer, ApprovalQuestion } from './action-approval';

/** Longest rendering of the arguments shown to the human (the full values travel in the requested schema). */
const ARGUMENTS_SHOWN_CHARS = 2000;

const WORDS: Record<Language, Record<string, string>> = {
  'en-US': {
    intro: 'An agent wants to run this action. Approve it?',
    action: 'Action',
    network: 'Knowledge network',
    instance: 'Instance',
    arguments: 'Arguments (as they will be sent)',
    impact: 'Impact',
    requires_approval: 'the action type requires approval',
    high_risk: 'high risk',
    runs: 'runs',
    approve: 'Approve',
    approveHelp: 'Run this action now with exactly these arguments',
  },
  'zh-Hans': {
    intro: '智能体请求执行以下行动，是否批准？',
    action: '行动',
    network: '知识网络',
    instance: '实例',
    arguments: '参数（将按此发送）',
    impact: '影响',
    requires_approval: '该行动类需要审批',
    high_risk: '高风险',
    runs: '执行',
    approve: '批准',
    approveHelp: '立即按这些参数执行该行动',
  },
};

/** The question as a human reads it, in the caller's language: what will run, on what, with which values. */
export function approvalMessage(question: ApprovalQuestion): string {
  const words = WORDS[question.language];
  const impact = [
    question.actionType ? `${question.actionType}` : undefined,
    question.riskLevel ? `risk_level=${question.riskLevel}` : undefined,
    words[question.reason],
    `${words.runs} ${describeSource(question.source)}`,
  ].filter(Boolean);
  const args = JSON.stringify(question.arguments, null, 2);
  return [
    words.intro,
    `${words.action}: ${question.actionName} (${question.atId})`,
    `${words.network}: ${question.knId}`,
    `${words.instance}: ${JSON.stringify(question.instance)}`,
    `${words.impact}: ${impact.join('; ')}`,
    `${words.arguments}:`,
    args.length > ARGUMENTS_SHOWN_CHARS ? `${args.slice(0, ARGUMENTS_SHOWN_CHARS)}…` : args,
  ].join('\n');
}

/** The form a client shows: one required yes/no field, so a plain "accept" without a tick is not a yes. */
export function approvalForm(language: Language) {
  const words = WORDS[language];
  return {
    type: 'object' as const,
    properties: {
      approve: { type: 'boolean' as const, title: words.approve, description: words.approveHelp, default: false },
    },
    required: ['approve'],
  };
}

/** An elicitation result (`{action, content}`) read as an approval: only `accept` with approve=true is a yes. */
export function answerOf(result: unknown): ApprovalAnswer {
  if (typeof result !== 'object' || result === null) return 'declined';
  const { action, content } = result as { action?: unknown; content?: unknown };
  if (action !== 'accept' || typeof content !== 'object' || content === null) return 'declined';
  return (content as { approve?: unknown }).approve === true ? 'approved' : 'declined';
}

/** Identifies what was approved: the same action, instance and arguments give the same digest. */
export function questionDigest(question: ApprovalQuestion): string {
  const { knId, atId, instance, arguments: args } = question;
  return createHash('sha256')
    .update(canonicalJson([knId, atId, instance, args]))
    .digest('base64url');
}

/** JSON with object keys sorted, so equal values hash equally whatever order a client sent them in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)));
  });
}

function describeSource(source: ApprovalQuestion['source']): string {
  if (source.type === 'mcp') return `MCP ${source.mcp_id ?? ''}/${source.tool_name ?? ''}`;
  return `toolbox ${source.box_id ?? ''}/${source.tool_id ?? ''}`;
}
