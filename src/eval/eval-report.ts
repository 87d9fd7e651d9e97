import { QUERY_KINDS } from './query-set';
import { EvalRun, QueryOutcome } from './eval-runner';
import { mean, quantile } from './retrieval-metrics';

/** Means over a group of queries; latency in milliseconds. */
export interface GroupSummary {
  queries: number;
  conceptHit3: number;
  recall10: number;
  mrr10: number;
  ndcg10: number;
  p50Ms: number;
  p95Ms: number;
}

export interface RunSummary {
  network: string;
  search: string;
  kinds: Record<string, GroupSummary>;
  overall: GroupSummary;
}

/** What a baseline file records per network (query file's `network`): the overall nDCG@10 to defend. */
export type Baseline = Record<string, { ndcg10: number; conceptHit3?: number }>;

const round = (value: number): number => Math.round(value * 1000) / 1000;

function group(outcomes: QueryOutcome[]): GroupSummary {
  const ms = outcomes.map((outcome) => outcome.ms);
  return {
    queries: outcomes.length,
    conceptHit3: round(mean(outcomes.map((outcome) => outcome.scores.conceptHit3))),
    recall10: round(mean(outcomes.map((outcome) => outcome.scores.recall10))),
    mrr10: round(mean(outcomes.map((outcome) => outcome.scores.mrr10))),
    ndcg10: round(mean(outcomes.map((outcome) => outcome.scores.ndcg10))),
    p50Ms: round(quantile(ms, 0.5)),
    p95Ms: round(quantile(ms, 0.95)),
  };
}

export function summarize(run: EvalRun): RunSummary {
  const kinds: Record<string, GroupSummary> = {};
  for (const kind of QUERY_KINDS) {
    const outcomes = run.outcomes.filter((outcome) => outcome.query.kind === kind);
    if (outcomes.length > 0) kinds[kind] = group(outcomes);
  }
  return { network: run.network, search: run.search, kinds, overall: group(run.outcomes) };
}

const fixed = (value: number): string => value.toFixed(2);

/** A Markdown table: one row per kind, then the overall row in bold. */
export function formatSummary(summary: RunSummary): string {
  const lines = [
    `${summary.network} (${summary.search})`,
    '',
    '| kind | n | concept hit@3 | instance recall@10 | MRR@10 | nDCG@10 | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const row = (name: string, g: GroupSummary): string =>
    `| ${name} | ${g.queries} | ${fixed(g.conceptHit3)} | ${fixed(g.recall10)} | ${fixed(g.mrr10)} | ${fixed(g.ndcg10)} | ${g.p50Ms.toFixed(1)} | ${g.p95Ms.toFixed(1)} |`;
  for (const [kind, g] of Object.entries(summary.kinds)) lines.push(row(kind, g));
  const o = summary.overall;
  lines.push(
    `| **all** | **${o.queries}** | **${fixed(o.conceptHit3)}** | **${fixed(o.recall10)}** | **${fixed(o.mrr10)}** | **${fixed(o.ndcg10)}** | ${o.p50Ms.toFixed(1)} | ${o.p95Ms.toFixed(1)} |`,
  );
  return lines.join('\n');
}

/** Keyword-only and hybrid runs of one network side by side: each measure per kind, keyword → hybrid. */
export function formatComparison(keyword: RunSummary, hybrid: RunSummary): string {
  const lines = [
    `${keyword.network}: ${keyword.search} → ${hybrid.search} (stand-in embeddings)`,
    '',
    '| kind | n | concept hit@3 | instance recall@10 | MRR@10 | nDCG@10 | p50 ms |',
    '|---|---|---|---|---|---|---|',
  ];
  const pair = (a: number, b: number): string => `${fixed(a)} → ${fixed(b)}`;
  const row = (name: string, k: GroupSummary, h: GroupSummary): string =>
    `| ${name} | ${k.queries} | ${pair(k.conceptHit3, h.conceptHit3)} | ${pair(k.recall10, h.recall10)} | ${pair(k.mrr10, h.mrr10)} | ${pair(k.ndcg10, h.ndcg10)} | ${k.p50Ms.toFixed(1)} → ${h.p50Ms.toFixed(1)} |`;
  for (const [kind, k] of Object.entries(keyword.kinds)) {
    if (hybrid.kinds[kind]) lines.push(row(kind, k, hybrid.kinds[kind]));
  }
  lines.push(row('**all**', keyword.overall, hybrid.overall));
  return lines.join('\n');
}

/** One line per problem: a network whose overall nDCG@10 fell more than `tolerance` below its baseline. */
export function baselineRegressions(summaries: RunSummary[], baseline: Baseline, tolerance: number): string[] {
  const problems: string[] = [];
  for (const summary of summaries) {
    const recorded = baseline[summary.network];
    if (!recorded) continue;
    const drop = recorded.ndcg10 - summary.overall.ndcg10;
    if (drop > tolerance + 1e-9)
      problems.push(
        `${summary.network}: overall nDCG@10 ${fixed(summary.overall.ndcg10)} is ${drop.toFixed(3)} below the baseline ${recorded.ndcg10.toFixed(3)} (tolerance ${tolerance})`,
      );
  }
  return problems;
}

/** The baseline to record for these runs. */
export function baselineOf(summaries: RunSummary[]): Baseline {
  return Object.fromEntries(
    summaries.map((summary) => [
      summary.network,
      { ndcg10: summary.overall.ndcg10, conceptHit3: summary.overall.conceptHit3 },
    ]),
  );
}

/** A query read closely: its labels, the first three object types and the first ten instances with grades. */
export function explainOutcome(outcome: QueryOutcome): string {
  const { query, judgements, scores } = outcome;
  const labelled = [...judgements.entries()].sort((a, b) => b[1] - a[1]);
  const shown = outcome.instances.slice(0, 10).map((key) => `${key}(${judgements.get(key) ?? 0})`);
  const metric = (value: number | undefined): string => (value === undefined ? '-' : fixed(value));
  return [
    `${query.id} [${query.kind}] ${query.query}`,
    `  labels (${labelled.length}): ${labelled
      .slice(0, 12)
      .map(([key, grade]) => `${key}=${grade}`)
      .join(' ')}${labelled.length > 12 ? ' …' : ''}`,
    `  concepts: want ${query.concepts.join('/')}; got ${outcome.concepts.join(', ')} → hit@3 ${scores.conceptHit3}`,
    `  top 10: ${shown.join(' ')}`,
    `  recall@10 ${metric(scores.recall10)}  MRR@10 ${metric(scores.mrr10)}  nDCG@10 ${metric(scores.ndcg10)}`,
  ].join('\n');
}
