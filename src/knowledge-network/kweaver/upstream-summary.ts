import { asRecord, asString } from './json-readers';

const SUMMARY_MAX_CHARS = 200;

/**
 * A short, single-line account of an upstream error body for our error details: the upstream's own
 * code and message when it has them, capped, with control characters removed. The body itself is
 * never echoed (it may carry internal hosts, SQL or stack traces).
 */
export function summarizeUpstreamBody(body: unknown): string | undefined {
  const record = asRecord(body);
  if (!record) return undefined;
  const code = asString(record.error_code) ?? asString(record.code);
  const message =
    asString(record.description) ?? asString(record.message) ?? asString(record.error) ?? asString(record.detail);
  const text = [code, message].filter((part) => part !== undefined && part.trim() !== '').join(': ');
  return text === '' ? undefined : capText(text);
}

function capText(text: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return oneLine.length > SUMMARY_MAX_CHARS ? `${oneLine.slice(0, SUMMARY_MAX_CHARS)}…` : oneLine;
}

/** `<upstream> answered HTTP <status>[: <summary>]` — the details string of a translated upstream error. */
export function upstreamStatusDetails(upstream: string, status: number, body: unknown): string {
  const summary = summarizeUpstreamBody(body);
  return `${upstream} answered HTTP ${status}${summary ? `: ${summary}` : ''}`;
}
