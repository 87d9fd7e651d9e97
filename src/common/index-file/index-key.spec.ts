import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { indexKey, sourceFiles, sourceHash } from './index-key';

describe('index key', () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'index-key-'));
    mkdirSync(path.join(folder, 'data'));
    writeFileSync(path.join(folder, 'network.bkn'), '---\nid: n\n---\n');
    writeFileSync(path.join(folder, 'data', 'a.csv'), 'id\n1\n');
  });

  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('lists every file but hidden ones, relative and sorted', () => {
    writeFileSync(path.join(folder, '.network.bkn.swp'), 'x');
    writeFileSync(path.join(folder, 'mcp.json'), '{}');
    expect(sourceFiles(folder)).toEqual(['data/a.csv', 'mcp.json', 'network.bkn']);
  });

  it('changes with an edited, added or renamed file and not otherwise', () => {
    const original = sourceHash(folder);
    expect(sourceHash(folder)).toBe(original);
    writeFileSync(path.join(folder, 'data', 'a.csv'), 'id\n2\n');
    const edited = sourceHash(folder);
    expect(edited).not.toBe(original);
    renameSync(path.join(folder, 'data', 'a.csv'), path.join(folder, 'data', 'b.csv'));
    expect(sourceHash(folder)).not.toBe(edited);
    writeFileSync(path.join(folder, 'mcp.json'), '{}');
    expect(new Set([original, edited, sourceHash(folder)]).size).toBe(3);
  });

  it('tells apart two files from one file holding both contents', () => {
    writeFileSync(path.join(folder, 'data', 'a.csv'), 'ab');
    const split = sourceHash(folder);
    writeFileSync(path.join(folder, 'data', 'a.csv'), 'a');
    writeFileSync(path.join(folder, 'data', 'b.csv'), 'b');
    expect(sourceHash(folder)).not.toBe(split);
  });

  it('depends on the embedding model as well as the sources', () => {
    const source = sourceHash(folder);
    const keyword = indexKey(source, {});
    expect(indexKey(source, {})).toBe(keyword);
    expect(indexKey(source, { embedding: 'http://e m1' })).not.toBe(keyword);
    expect(indexKey(source, { embedding: 'http://e m1' })).not.toBe(indexKey(source, { embedding: 'http://e m2' }));
  });
});
