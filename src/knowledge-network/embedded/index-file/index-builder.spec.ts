import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { IndexBuilder } from './index-builder';
import { IndexDirectory } from '../../../common/index-file/index-directory';
import { fileSha256, INDEX_FORMAT_VERSION } from '../../../common/index-file/index-key';

const FIXTURE = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'networks', 'clinic-mini');

describe('IndexBuilder', () => {
  let root: string;
  let folder: string;
  let directory: IndexDirectory;
  const builder = (readOnly = false) =>
    new IndexBuilder({ directory: new IndexDirectory(directory.dir, readOnly), queryCacheSize: 0 });

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'index-builder-'));
    folder = path.join(root, 'networks', 'clinic-mini');
    cpSync(FIXTURE, folder, { recursive: true });
    directory = new IndexDirectory(path.join(root, 'indexes'), false);
    directory.unusableReason();
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds a file with its metadata, then opens it without building', async () => {
    const built = await builder().prepare(path.dirname(folder), folder);
    expect(built.info).toMatchObject({ storage: 'file', reused: false });
    expect(built.meta.schema.id).toBe('clinic_mini');
    expect(built.meta.instanceCount).toBeGreaterThan(0);
    const again = await builder(true).prepare(path.dirname(folder), folder);
    expect(again).toMatchObject({ file: built.file, info: { reused: true, hash: built.info.hash } });
    expect(again.meta).toEqual(built.meta);
  });

  it('rebuilds a foreign file even when its checksum sidecar matches it', async () => {
    const first = await builder().prepare(path.dirname(folder), folder);
    appendFileSync(path.join(folder, 'data', 'patient.csv'), 'P901,新患者,40,女,杭州,false,x,2024-01-01\n');
    const changed = await builder().prepare(path.dirname(folder), folder);
    // The old network's file, with a valid sidecar written for the new key: only index_meta tells.
    copyFileSync(first.file!, changed.file!);
    const key = JSON.parse(readFileSync(`${changed.file!}.sha256`, 'utf8')) as { key: string };
    const sum = {
      format: INDEX_FORMAT_VERSION,
      key: key.key,
      size: statSync(changed.file!).size,
      sha256: fileSha256(changed.file!),
    };
    writeFileSync(`${changed.file!}.sha256`, JSON.stringify(sum));
    await expect(builder(true).prepare(path.dirname(folder), folder)).rejects.toThrow(
      /not an index this service wrote for these sources.*INDEX_READ_ONLY/,
    );
    const rebuilt = await builder().prepare(path.dirname(folder), folder);
    expect(rebuilt.info.reused).toBe(false);
    expect(rebuilt.meta.instanceCount).toBe(first.meta.instanceCount + 1);
  });

  it('refuses to build when read-only, and writes nothing for a folder that fails to load', async () => {
    await expect(builder(true).prepare(path.dirname(folder), folder)).rejects.toThrow(/no index file.*INDEX_READ_ONLY/);
    appendFileSync(path.join(folder, 'data', 'patient.csv'), 'P902,坏行,old,女,杭州,false,x,2024-01-01\n');
    await expect(builder().prepare(path.dirname(folder), folder)).rejects.toThrow(/patient\.csv:\d+: column "age"/);
    expect(readdirSync(directory.dir)).toEqual([]);
  });

  it('streams the rows into the file: the same instances as in memory, a duplicate key fails with its first line', async () => {
    const inMemory = await new IndexBuilder({ queryCacheSize: 0 }).prepare(path.dirname(folder), folder);
    const built = await builder().prepare(path.dirname(folder), folder);
    expect(built.meta.instanceCount).toBe(inMemory.meta.instanceCount);
    expect(built.meta.commonTerms).toEqual(inMemory.meta.commonTerms);
    inMemory.network?.index.close();
    appendFileSync(path.join(folder, 'data', 'patient.csv'), 'P001,重复,40,女,杭州,false,x,2024-01-01\n');
    await expect(builder().prepare(path.dirname(folder), folder)).rejects.toThrow(
      /patient\.csv:\d+: duplicate primary key \["P001"\] \(first on line 2\)/,
    );
    expect(readdirSync(directory.dir).filter((name) => name.startsWith('.building'))).toEqual([]);
  });
});
