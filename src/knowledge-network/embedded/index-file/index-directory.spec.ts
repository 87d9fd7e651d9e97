import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IndexDirectory } from './index-directory';
import { INDEX_FORMAT_VERSION } from './index-key';

describe('IndexDirectory', () => {
  let dir: string;
  const folder = '/srv/networks/clinic';
  const key = 'a'.repeat(64);

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'index-dir-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const publish = (directory: IndexDirectory, content = 'index bytes', k = key) =>
    directory.publish(folder, k, (file) => {
      writeFileSync(file, content);
      return Promise.resolve(file);
    });

  it('names a file by folder, place and key, and accepts it once published', async () => {
    const directory = new IndexDirectory(dir, false);
    const file = directory.fileFor(folder, key);
    expect(path.basename(file)).toMatch(/^clinic\.[0-9a-f]{8}\.a{32}\.sqlite$/);
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'no index file' });
    await publish(directory);
    expect(directory.check(file, key)).toEqual({ valid: true });
    const sum = JSON.parse(readFileSync(`${file}.sha256`, 'utf8')) as { format: number; size: number };
    expect(sum).toMatchObject({ format: INDEX_FORMAT_VERSION, key, size: 'index bytes'.length });
    expect(readdirSync(dir).sort()).toEqual([path.basename(file), `${path.basename(file)}.sha256`]);
  });

  it('rejects a file whose bytes, size, key or checksum do not match', async () => {
    const directory = new IndexDirectory(dir, false);
    const file = directory.fileFor(folder, key);
    await publish(directory);
    writeFileSync(file, 'index bytez');
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file checksum mismatch' });
    writeFileSync(file, 'index');
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file size differs from its checksum' });
    expect(directory.check(file, 'b'.repeat(64))).toEqual({ valid: false, reason: 'index built from other sources' });
    rmSync(`${file}.sha256`);
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'no readable checksum beside the index file' });
  });

  it('leaves nothing under a real name when the build fails', async () => {
    const directory = new IndexDirectory(dir, false);
    const failing = directory.publish(folder, key, (file) => {
      writeFileSync(file, 'half an index');
      return Promise.reject(new Error('data/a.csv:3: bad row'));
    });
    await expect(failing).rejects.toThrow('data/a.csv:3: bad row');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('removes the older files of the same folder and only those', async () => {
    const directory = new IndexDirectory(dir, false);
    await publish(directory, 'old', 'c'.repeat(64));
    await publish(directory, 'new');
    await directory.publish('/srv/other/clinic', key, (file) => Promise.resolve(writeFileSync(file, 'x')));
    directory.removeOthers(folder, directory.fileFor(folder, key));
    expect(existsSync(directory.fileFor(folder, 'c'.repeat(64)))).toBe(false);
    expect(existsSync(directory.fileFor(folder, key))).toBe(true);
    expect(existsSync(directory.fileFor('/srv/other/clinic', key))).toBe(true);
  });

  it('reports a folder it cannot write, and never deletes when read-only', async () => {
    const writable = new IndexDirectory(dir, false);
    await publish(writable);
    // Below a regular file: not writable even by root (chmod would not stop root).
    writeFileSync(path.join(dir, 'plain-file'), '');
    const unwritable = new IndexDirectory(path.join(dir, 'plain-file', 'indexes'), false);
    expect(unwritable.unusableReason()).toBe('ENOTDIR');
    const readOnly = new IndexDirectory(dir, true);
    expect(readOnly.unusableReason()).toBeUndefined();
    readOnly.removeOthers(folder, 'none');
    expect(existsSync(writable.fileFor(folder, key))).toBe(true);
  });
});
