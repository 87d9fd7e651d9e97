import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openDatabase } from '../../common/sqlite/open-database';
import {
  ForeignKbIndexError,
  kbIndexKey,
  KbIndexMeta,
  openKbIndex,
  readKbMeta,
  readKbVectors,
  writeKbIndex,
} from './kb-index-file';

const META: KbIndexMeta = {
  bases: [{ id: 'ops', name: 'Ops', description: '', document_count: 1 }],
  passages: 2,
  warnings: [],
  dimension: 3,
  builtAt: '2026-01-01T00:00:00.000Z',
  buildMs: 5,
};

describe('documents index file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kb-index-file-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the metadata and the vectors through a file opened read-only', () => {
    const db = openDatabase();
    writeKbIndex(db, 'key-1', META, new Float32Array([0.5, -1, 2, 3, 4, 5]));
    const file = path.join(dir, 'docs.sqlite');
    writeFileSync(file, db.serialize());
    db.close();

    const opened = openKbIndex(file);
    try {
      expect(readKbMeta(opened, 'key-1')).toEqual(META);
      expect([...readKbVectors(opened)!]).toEqual([0.5, -1, 2, 3, 4, 5]);
      expect(() => readKbMeta(opened, 'key-2')).toThrow(ForeignKbIndexError);
    } finally {
      opened.close();
    }
  });

  it('has no vectors when keyword-only, and calls a database without its tables foreign', () => {
    const db = openDatabase();
    writeKbIndex(db, 'key-1', { ...META, dimension: 0 }, undefined);
    expect(readKbVectors(db)).toBeUndefined();
    db.close();
    const other = openDatabase();
    expect(() => readKbMeta(other)).toThrow('not a documents index');
    other.close();
  });

  it('keys a folder by its content and the embedding model', () => {
    const folder = path.join(dir, 'docs');
    mkdirSync(path.join(folder, 'ops'), { recursive: true });
    writeFileSync(path.join(folder, 'ops', 'a.md'), '# A\n');
    const keyword = kbIndexKey(folder, undefined);
    expect(kbIndexKey(folder, undefined)).toBe(keyword);
    expect(kbIndexKey(folder, 'http://embed model-a')).not.toBe(keyword);
    writeFileSync(path.join(folder, 'ops', 'a.md'), '# A, edited\n');
    expect(kbIndexKey(folder, undefined)).not.toBe(keyword);
  });
});
