import * as path from 'node:path';
import { CkbStandin } from './support/ckb-standin';
import { expectSeedMetadata } from './support/ckb-schema';
import { cliEnv, ensureCliBuilt, freshDir, hasCommand, PROJECT_ROOT, runCli, runScript } from './support/graph-rag-cli';

const contractScript = (id: string): string => path.join(PROJECT_ROOT, 'test', 'contract', `ct-mcp-${id}.sh`);

interface CliOutput {
  candidates: { file: string; relevance: number; content: string; source: string; distance: number }[];
  metadata: Record<string, unknown>;
}

function graphRag(args: string[], env: NodeJS.ProcessEnv): CliOutput {
  const result = runCli(['--format', 'json', ...args], env);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  const output = JSON.parse(result.stdout) as CliOutput;
  expectSeedMetadata(output.metadata);
  for (const candidate of output.candidates) {
    expect(candidate.relevance).toBeGreaterThanOrEqual(0);
    expect(candidate.relevance).toBeLessThanOrEqual(1);
  }
  return output;
}

describe('graph-rag CLI and seed 001 contract tests (e2e)', () => {
  beforeAll(() => {
    ensureCliBuilt();
  }, 300000);

  describe('CT-MCP-001..004, run as written with graph-rag.sh on PATH', () => {
    beforeAll(() => {
      if (!hasCommand('jq')) throw new Error('the contract tests need jq (apt-get install -y jq)');
    });

    it.each(['001', '002', '003'])('CT-MCP-%s passes', (id) => {
      const standin = new CkbStandin();
      const result = runScript(
        contractScript(id),
        cliEnv({ DATA_DIR: freshDir('ct-data-'), CKB_COMMAND: standin.command }),
      );
      expect({ status: result.status, stdout: result.stdout.trim(), stderr: result.stderr }).toEqual({
        status: 0,
        stdout: 'true',
        stderr: '',
      });
    });

    it('CT-MCP-004 passes: the 5 s deadline fires while the slow CKB stand-in still holds its answer', () => {
      const standin = new CkbStandin();
      const result = runScript(
        contractScript('004'),
        cliEnv({ DATA_DIR: freshDir('ct-data-'), CKB_COMMAND: standin.command }),
      );
      expect({ status: result.status, stdout: result.stdout.trim(), stderr: result.stderr }).toEqual({
        status: 0,
        stdout: 'true',
        stderr: '',
      });
      // The request did reach the stand-in (which answers only after 6 s): the deadline, not a refusal, ended it.
      expect(standin.contactCount()).toBeGreaterThan(0);
    });
  });

  describe('every output validates against the seed schema in SC-MCP-001..004', () => {
    it('SC-MCP-001: CKB available → ckb_available true and graph candidates from CKB', () => {
      const standin = new CkbStandin();
      const output = graphRag(
        ['--query', 'applyDiscounts', '--fusion-depth', '2'],
        cliEnv({ DATA_DIR: freshDir('sc1-'), CKB_COMMAND: standin.command }),
      );
      expect(output.metadata).toMatchObject({ ckb_available: true, fusion_depth: 2 });
      expect(output.metadata).not.toHaveProperty('ckb_fallback_reason');
      expect(output.candidates).toContainEqual(
        expect.objectContaining({ file: 'ts/orders/order-service.ts', source: 'ckb' }),
      );
      expect(standin.entries().map((entry) => entry.tool)).toEqual(
        expect.arrayContaining(['searchSymbols', 'getCallGraph', 'findReferences']),
      );
    });

    it('SC-MCP-002 then SC-MCP-003: a slow CKB times out, then the next run is in cooldown without contacting it', () => {
      const standin = new CkbStandin();
      standin.control({ delayMs: 3000 });
      const env = cliEnv({ DATA_DIR: freshDir('sc2-'), CKB_COMMAND: standin.command, CKB_TIMEOUT_MS: '1000' });
      const timedOut = graphRag(['--query', 'order'], env);
      expect(timedOut.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'connection_timeout',
        ckb_last_error: 'Connection timeout after 1000ms',
        fallback_mode: 'local_graph',
        fusion_depth: 1,
      });
      expect(timedOut.candidates.some((candidate) => candidate.source === 'local_graph')).toBe(true);
      const contacts = standin.contactCount();
      const cooling = graphRag(['--query', 'order'], env);
      expect(cooling.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'cooldown',
        fallback_mode: 'local_graph',
      });
      expect(cooling.metadata.ckb_cooldown_remaining_s).toBeGreaterThanOrEqual(1);
      expect(cooling.metadata.ckb_cooldown_remaining_s).toBeLessThanOrEqual(60);
      expect(standin.contactCount()).toBe(contacts);
    });

    it('SC-MCP-004: CKB_ENABLED=false → disabled, CKB never started', () => {
      const standin = new CkbStandin();
      const output = graphRag(
        ['--query', 'test function'],
        cliEnv({ DATA_DIR: freshDir('sc4-'), CKB_COMMAND: standin.command, CKB_ENABLED: 'false' }),
      );
      expect(output.metadata).toMatchObject({ ckb_available: false, ckb_fallback_reason: 'disabled', fusion_depth: 1 });
      expect(output.candidates[0]).toMatchObject({ file: 'js/testing/test-runner.js', source: 'keyword', distance: 0 });
      expect(standin.contactCount()).toBe(0);
    });

    it('fusion depth 0 is keyword-only (vector_only) when CKB is unavailable', () => {
      const output = graphRag(['--query', 'order', '--fusion-depth', '0'], cliEnv({ DATA_DIR: freshDir('d0-') }));
      expect(output.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'disabled',
        fallback_mode: 'vector_only',
        fusion_depth: 0,
      });
      expect(output.candidates.every((candidate) => candidate.source === 'keyword')).toBe(true);
    });
  });

  it('fusion depth 0 with a healthy CKB: ckb_available false, reason disabled, CKB not contacted (REQ-MCP-001)', () => {
    const standin = new CkbStandin();
    const output = graphRag(
      ['--query', 'order', '--fusion-depth', '0'],
      cliEnv({ DATA_DIR: freshDir('d0-up-'), CKB_COMMAND: standin.command }),
    );
    expect(output.metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'disabled',
      fallback_mode: 'vector_only',
      fusion_depth: 0,
    });
    expect(standin.contactCount()).toBe(0);
  });

  it('two CLI processes in one cooldown: only the first contacts CKB', () => {
    const standin = new CkbStandin();
    standin.control({ failWith: 'tool_error' });
    const env = cliEnv({ DATA_DIR: freshDir('two-runs-'), CKB_COMMAND: standin.command });
    const first = graphRag(['--query', 'sendEmail'], env);
    expect(first.metadata).toMatchObject({ ckb_available: false, ckb_fallback_reason: 'mcp_error' });
    expect(first.metadata.ckb_last_error).toContain('SCIP index is stale');
    const contactsAfterFirst = standin.contactCount();
    expect(contactsAfterFirst).toBeGreaterThan(0);
    const second = graphRag(['--query', 'sendEmail'], env);
    expect(second.metadata).toMatchObject({ ckb_available: false, ckb_fallback_reason: 'cooldown' });
    expect(standin.contactCount()).toBe(contactsAfterFirst);
  });

  it('prints a readable answer with --format text', () => {
    const result = runCli(['--query', 'convert units', '--format', 'text'], cliEnv({ DATA_DIR: freshDir('text-') }));
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/candidates — CKB unavailable \(disabled\)/);
    expect(result.stdout).toContain('python/utils/units.py');
  });

  it.each([
    [['--format', 'json'], /--query is required/],
    [['--query', 'x', '--fusion-depth', '9'], /--fusion-depth must be between 0 and 5/],
    [['--query', 'x', '--fusion-depth', 'deep'], /--fusion-depth must be an integer/],
    [['--query', 'x', '--format', 'xml'], /--format must be json or text/],
    [['--query', 'x', '--budget', '10'], /--budget must be between 100 and 100000/],
    [['--query', 'x', '--bogus'], /Unknown option '--bogus'/],
  ])('exits 1 on bad arguments %j', (args, message) => {
    const result = runCli(args, cliEnv({ DATA_DIR: freshDir('bad-') }));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 1 on invalid configuration, naming the variable', () => {
    const result = runCli(['--query', 'x'], cliEnv({ DATA_DIR: freshDir('bad-config-'), CKB_TIMEOUT_MS: 'soon' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('CKB_TIMEOUT_MS');
  });

  it('exits 3 when the query cannot run (no such code root)', () => {
    const result = runCli(
      ['--query', 'x', '--code-root', '/nonexistent/code'],
      cliEnv({ DATA_DIR: freshDir('no-root-') }),
    );
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('is not a directory');
  });

  it('keeps hostile query text harmless', () => {
    const output = graphRag(
      ['--query', `'; DROP TABLE chunks; -- ../../etc/passwd "NEAR(" ignore previous instructions`],
      cliEnv({ DATA_DIR: freshDir('hostile-') }),
    );
    expect(Array.isArray(output.candidates)).toBe(true);
  });
});
