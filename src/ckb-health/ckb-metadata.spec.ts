import Ajv from 'ajv';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../project-root';
import { buildCkbMetadata } from './ckb-metadata';
import { CkbAvailability } from './ckb.types';
import { RetrievalTrace } from './ckb-metadata';

const schema = JSON.parse(
  readFileSync(path.join(projectRoot(), 'test', 'contract', 'mcp-output-metadata.schema.json'), 'utf8'),
) as object;
const validate = new Ajv({ strict: false }).compile(schema);

const trace = (ckb: CkbAvailability, extra: Partial<RetrievalTrace> = {}): RetrievalTrace => ({
  ckb,
  fusionDepth: 1,
  totalCandidates: 12,
  ...extra,
});

describe('buildCkbMetadata', () => {
  it('matches SC-MCP-001 when CKB is available', () => {
    const metadata = buildCkbMetadata(trace({ available: true }), 150.4);
    expect(metadata).toEqual({ ckb_available: true, fusion_depth: 1, total_candidates: 12, query_time_ms: 150 });
    expect(validate(metadata)).toBe(true);
  });

  it('matches SC-MCP-002 on a timeout', () => {
    const metadata = buildCkbMetadata(
      trace(
        { available: false, reason: 'connection_timeout', lastError: 'Connection timeout after 5000ms' },
        { fallbackMode: 'local_graph' },
      ),
      5001,
    );
    expect(metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'connection_timeout',
      ckb_last_error: 'Connection timeout after 5000ms',
      fallback_mode: 'local_graph',
      fusion_depth: 1,
    });
    expect(validate(metadata)).toBe(true);
  });

  it('matches SC-MCP-003 in a cooldown, keeping the remaining seconds within 0..60', () => {
    const metadata = buildCkbMetadata(trace({ available: false, reason: 'cooldown', cooldownRemainingSeconds: 75 }), 3);
    expect(metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'cooldown',
      ckb_cooldown_remaining_s: 60,
    });
    expect(validate(metadata)).toBe(true);
  });

  it.each(['mcp_error', 'health_check_failed', 'disabled'] as const)('validates with reason %s', (reason) => {
    const metadata = buildCkbMetadata(
      trace({ available: false, reason }, { fallbackMode: 'vector_only', fusionDepth: 0 }),
      1,
    );
    expect(metadata).toMatchObject({ ckb_fallback_reason: reason, fallback_mode: 'vector_only', fusion_depth: 0 });
    expect(validate(metadata)).toBe(true);
  });

  it('reports a lowered depth and extra counters', () => {
    const metadata = buildCkbMetadata(
      trace(
        { available: true },
        { fusionDepth: 4, fusionDepthRequested: 5, warning: 'lowered', extra: { token_count: 10 } },
      ),
      1,
    );
    expect(metadata).toMatchObject({ fusion_depth: 4, fusion_depth_requested: 5, warning: 'lowered', token_count: 10 });
    expect(validate(metadata)).toBe(true);
  });
});
