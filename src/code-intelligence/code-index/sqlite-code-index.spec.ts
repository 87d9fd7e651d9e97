import * as path from 'node:path';
import { projectRoot } from '../../project-root';
import { readSourceFiles } from './code-files.reader';
import { SqliteCodeIndex } from './sqlite-code-index';

const SAMPLE_ROOT = path.join(projectRoot(), 'examples', 'code');
const SAMPLE_FILES = readSourceFiles(SAMPLE_ROOT).files.map((file) => file.path);

/**
 * What the index's tables hold, read through its queries: status() is a snapshot taken at rebuild and
 * would not notice a table dropped or emptied since. `edgeEnds` counts each linked pair of files twice.
 */
function tableCounts(index: SqliteCodeIndex): { chunks: number; edgeEnds: number } {
  // chunksOfFile joins the files table, so the chunk count also fails when files is dropped or emptied.
  return {
    chunks: SAMPLE_FILES.reduce((sum, file) => sum + index.chunksOfFile(file).length, 0),
    edgeEnds: SAMPLE_FILES.reduce((sum, file) => sum + index.importNeighbours(file).length, 0),
  };
}

describe('SqliteCodeIndex over examples/code', () => {
  const index = new SqliteCodeIndex();

  beforeAll(() => {
    index.rebuild(SAMPLE_ROOT);
  });

  it('counts files, chunks and import edges in its status', () => {
    const status = index.status();
    expect(status.code_root).toBe(SAMPLE_ROOT);
    expect(status.files).toBe(18);
    expect(status.chunks).toBeGreaterThan(status.files);
    expect(status.edges).toBeGreaterThanOrEqual(10);
    expect(status.indexed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // 13 edges link 12 pairs of files (order-service and order-repository import each other), each seen from both ends.
    expect(status.edges).toBe(13);
    expect(tableCounts(index)).toEqual({ chunks: status.chunks, edgeEnds: 24 });
  });

  it('finds a camelCase function by one of its parts', () => {
    const hits = index.search('discounts', 5);
    expect(hits[0].chunk).toMatchObject({ file: 'ts/pricing/discount-rules.ts', symbol: 'applyDiscounts' });
  });

  it('finds a snake_case function by its whole name and by its parts', () => {
    expect(index.search('convert_units', 3)[0].chunk.symbol).toBe('convert_units');
    expect(index.search('convert units', 3).map((hit) => hit.chunk.symbol)).toContain('convert_units');
  });

  it('resolves relative TS, require, Python relative and Go module imports in both directions', () => {
    expect(index.importNeighbours('ts/orders/order-service.ts')).toEqual(
      expect.arrayContaining(['ts/pricing/price-calculator.ts', 'ts/orders/order-repository.ts', 'ts/index.ts']),
    );
    expect(index.importNeighbours('js/notifications/email-sender.js')).toEqual(
      expect.arrayContaining(['js/notifications/templates.js', 'js/notifications/notifier.js']),
    );
    expect(index.importNeighbours('python/inventory/warehouse.py')).toEqual(
      expect.arrayContaining(['python/utils/units.py', 'python/inventory/stock.py']),
    );
    expect(index.importNeighbours('go/main.go')).toEqual(['go/tracker/eta.go', 'go/tracker/tracker.go']);
  });

  it('finds definitions and call sites of a symbol', () => {
    expect(index.definitions('calculateTotal').map((chunk) => chunk.file)).toEqual(['ts/pricing/price-calculator.ts']);
    expect(index.callSites('calculateTotal', 10).map((chunk) => chunk.symbol)).toEqual(['placeOrder']);
  });

  it('treats hostile query text as plain words', () => {
    const before = tableCounts(index);
    expect(() => index.search('"; DROP TABLE chunks; -- NEAR(a b) ../../etc/passwd *', 5)).not.toThrow();
    expect(index.search('!!! ??? ---', 5)).toEqual([]);
    expect(index.status().chunks).toBeGreaterThan(0);
    expect(tableCounts(index)).toEqual(before);
    expect(index.search('convert_units', 3)[0].chunk.symbol).toBe('convert_units');
  });

  it('is empty without a code root', () => {
    const empty = new SqliteCodeIndex();
    expect(empty.rebuild(undefined)).toMatchObject({
      code_root: null,
      files: 0,
      chunks: 0,
      edges: 0,
      indexed_at: null,
    });
    expect(empty.search('order', 5)).toEqual([]);
  });
});
