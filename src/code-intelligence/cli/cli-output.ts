import { WithCkbMetadata } from '../../ckb-health/ckb-metadata';
import { GraphRagResult } from '../code-tools.types';

const PREVIEW_LINES = 4;

function describeCkb(metadata: WithCkbMetadata<GraphRagResult>['metadata']): string {
  if (metadata.ckb_available) return 'CKB available';
  const parts = [`CKB unavailable (${metadata.ckb_fallback_reason}`];
  if (metadata.ckb_cooldown_remaining_s !== undefined)
    parts.push(`, ${metadata.ckb_cooldown_remaining_s} s of cooldown left`);
  if (metadata.ckb_last_error) parts.push(`: ${metadata.ckb_last_error}`);
  return `${parts.join('')})`;
}

/** The human-readable form of a graph-RAG answer (`--format text`). */
export function formatGraphRagText(output: WithCkbMetadata<GraphRagResult>): string {
  const { candidates, metadata } = output;
  const lines = [
    `${candidates.length} of ${metadata.total_candidates} candidates — ${describeCkb(metadata)}; ` +
      `fallback: ${metadata.fallback_mode ?? 'none'}; fusion depth ${metadata.fusion_depth}; ${metadata.query_time_ms} ms`,
  ];
  if (metadata.warning) lines.push(`warning: ${metadata.warning}`);
  candidates.forEach((candidate, index) => {
    const symbol = candidate.symbol ? ` ${candidate.symbol}` : '';
    lines.push(
      '',
      `${index + 1}. ${candidate.file}:${candidate.start_line}-${candidate.end_line}${symbol}  ` +
        `relevance ${candidate.relevance}  ${candidate.source}  distance ${candidate.distance}`,
      ...candidate.content
        .split('\n')
        .slice(0, PREVIEW_LINES)
        .map((line) => `   ${line}`),
    );
  });
  return `${lines.join('\n')}\n`;
}
