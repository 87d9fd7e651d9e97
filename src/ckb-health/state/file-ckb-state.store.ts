import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { CkbState } from '../ckb.types';
import { parseCkbState } from './ckb-state.parse';
import { CkbStateStore } from './ckb-state.store';

export const CKB_STATE_FILE = 'ckb-state.json';

/**
 * The state as a JSON file under DATA_DIR. Writes go to a temp file that is then renamed, so a reader
 * in another process sees either the old or the new state, never half of one.
 */
export class FileCkbStateStore extends CkbStateStore {
  private readonly file: string;

  constructor(dataDir: string) {
    super();
    this.file = path.join(dataDir, CKB_STATE_FILE);
  }

  async read(): Promise<CkbState> {
    try {
      return parseCkbState(await readFile(this.file, 'utf8'));
    } catch {
      return parseCkbState(null);
    }
  }

  async write(state: CkbState): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(state), 'utf8');
      await rename(temporary, this.file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
