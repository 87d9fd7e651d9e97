import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { Logger } from '@nestjs/common';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IndexDirectory } from './index-directory';
import { INDEX_FORMAT_VERSION } from './index-key';
import { hashSources } from './source-manifest';

/** A SQLite header for a one-page file of `size` bytes (what `sqliteHeaderFits` reads), then padding. */
function sqliteBytes(size = 4096, fill = 0): Buffer {
  const bytes = Buffer.alloc(size, fill);
  bytes.write('SQLite format 3\u0000', 0, 'latin1');
  bytes.writeUInt16BE(4096, 16);
  bytes.writeUInt32BE(7, 24);
  bytes.writeUInt32BE(size / 4096, 28);
  bytes.writeUInt32BE(7, 92);
  return bytes;
}

describe('IndexDirectory', () => {
  let dir: string;
  const folder = '/srv/networks/clinic';
  const key = 'a'.repeat(64);

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'index-dir-'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const publish = (directory: IndexDirectory, content: string | Buffer = 'index bytes', k = key) =>
    directory.publish(folder, k, (file) => {
      writeFileSync(file, content);
      return Promise.resolve(file);
    });

  it('names a file by folder, place and key, and accepts it once published', async () => {
    const directory = new IndexDirectory(dir, false);
    const file = directory.fileFor(folder, key);
    expect(path.basename(file)).toMatch(/^clinic\.[0-9a-f]{8}\.a{32}\.sqlite$/);
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'no index file' });
    await publish(directory, sqliteBytes());
    expect(directory.check(file, key)).toMatchObject({ valid: true, by: 'identity' });
    const sum = JSON.parse(readFileSync(`${file}.sha256`, 'utf8')) as { format: number; size: number };
    expect(sum).toMatchObject({ format: INDEX_FORMAT_VERSION, key, size: 4096 });
    expect(readdirSync(dir).sort()).toEqual([path.basename(file), `${path.basename(file)}.sha256`]);
  });

  it('names one folder the same whichever symbolic link it is reached through', () => {
    const directory = new IndexDirectory(dir, false);
    const real = path.join(dir, 'networks', 'clinic');
    mkdirSync(real, { recursive: true });
    symlinkSync(path.join(dir, 'networks'), path.join(dir, 'mounted'));
    const linked = path.join(dir, 'mounted', 'clinic');
    expect(directory.fileFor(linked, key)).toBe(directory.fileFor(real, key));
    expect(directory.fileFor(path.join(dir, 'networks', 'other'), key)).not.toBe(directory.fileFor(real, key));
  });

  it('rejects a file whose bytes, size, key or checksum do not match', async () => {
    const directory = new IndexDirectory(dir, false, 'always');
    const file = directory.fileFor(folder, key);
    await publish(directory);
    expect(directory.check(file, key)).toMatchObject({ valid: true, by: 'checksum' });
    writeFileSync(file, 'index bytez');
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file checksum mismatch' });
    writeFileSync(file, 'index');
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file size differs from its checksum' });
    expect(directory.check(file, 'b'.repeat(64))).toEqual({ valid: false, reason: 'index built from other sources' });
    rmSync(`${file}.sha256`);
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'no readable checksum beside the index file' });
  });

  it('warns that a file it refuses is not served, and says nothing of a file not there', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const directory = new IndexDirectory(dir, false, 'always');
      const file = directory.fileFor(folder, key);
      directory.check(file, key);
      await publish(directory);
      writeFileSync(file, 'index bytez');
      directory.check(file, key);
      new IndexDirectory(dir, true, 'always').check(file, key);
      expect(warn.mock.calls.map(([message]) => message)).toEqual([
        `index file ${path.basename(file)} is not served (index file checksum mismatch); rebuilding it`,
        `index file ${path.basename(file)} is not served (index file checksum mismatch); INDEX_READ_ONLY: not rebuilt here`,
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('reads a file again once it was replaced, and trusts an unchanged one only with a fitting header', async () => {
    const directory = new IndexDirectory(dir, false);
    const file = directory.fileFor(folder, key);
    await publish(directory, sqliteBytes());
    // Same size, other bytes, renamed over the index: another inode, so the checksum is read and fails.
    writeFileSync(path.join(dir, 'foreign'), sqliteBytes(4096, 1));
    renameSync(path.join(dir, 'foreign'), file);
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file checksum mismatch' });

    await publish(directory, 'not a database');
    expect(directory.check(file, key)).toEqual({ valid: false, reason: 'index file header does not fit its size' });
  });

  it('records the sources and the checked identity, so an unchanged folder and file are not read again', async () => {
    const sources = path.join(dir, 'network');
    mkdirSync(path.join(sources, 'data'), { recursive: true });
    writeFileSync(path.join(sources, 'network.bkn'), 'id: n');
    writeFileSync(path.join(sources, 'data', 'a.csv'), 'id\n1\n');
    // Older than the racy window: a file changed just now is not trusted by its identity alone.
    const manifest = { ...hashSources(sources) };
    expect(manifest.files).toBeUndefined();
    jest.useFakeTimers({ now: Date.now() + 10_000, doNotFake: ['nextTick', 'setImmediate'] });
    const old = hashSources(sources);
    jest.useRealTimers();
    expect(old).toEqual({ hash: manifest.hash, files: [expect.any(Array), expect.any(Array)] });
    const directory = new IndexDirectory(dir, false, 'always');
    await directory.publish(sources, key, (file) => Promise.resolve(writeFileSync(file, sqliteBytes())), old);
    expect(directory.knownSources(sources)).toEqual(old);
    writeFileSync(path.join(sources, 'data', 'b.csv'), 'id\n2\n');
    expect(directory.knownSources(sources)).toBeUndefined();
    rmSync(path.join(sources, 'data', 'b.csv'));
    expect(directory.knownSources(sources)).toEqual(old);

    const file = directory.fileFor(sources, key);
    const checked = directory.check(file, key);
    expect(checked).toMatchObject({ valid: true, by: 'checksum' });
    const changed = new IndexDirectory(dir, false);
    expect(changed.check(file, key)).toMatchObject({ valid: true, by: 'identity' });
    writeFileSync(
      `${file}.sha256`,
      JSON.stringify({ ...JSON.parse(readFileSync(`${file}.sha256`, 'utf8')), identity: 'x' }),
    );
    expect(changed.check(file, key)).toMatchObject({ valid: true, by: 'checksum' });
    if (checked.valid) changed.remember(file, checked.identity, old);
    expect(changed.check(file, key)).toMatchObject({ valid: true, by: 'identity' });
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

  it('removes the temporary file of a build killed long ago, and leaves a recent one', async () => {
    const directory = new IndexDirectory(dir, false);
    const abandoned = path.join(dir, '.building-4242-0123456789ab.sqlite');
    const running = path.join(dir, '.building-4243-0123456789ab.sqlite');
    writeFileSync(abandoned, 'half an index');
    writeFileSync(running, 'half an index');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(abandoned, twoHoursAgo, twoHoursAgo);
    await publish(directory);
    expect(readdirSync(dir).filter((name) => name.startsWith('.building'))).toEqual([path.basename(running)]);
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
