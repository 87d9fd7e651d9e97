import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkspaceErrors } from './workspace.errors';
import { LOCK_FILE, withFolderLock } from './folder-lock';

describe('withFolderLock', () => {
  let folder: string;
  const timing = { staleMs: 30_000, waitMs: 2_000 };

  beforeEach(() => {
    folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folder-lock-')), 'account');
  });
  afterEach(() => fs.rmSync(path.dirname(folder), { recursive: true, force: true }));

  const lockFile = () => path.join(folder, LOCK_FILE);

  it('creates the folder and runs the tasks on it one at a time, leaving no lock behind', async () => {
    let running = 0;
    let most = 0;
    const task = async (index: number) => {
      running += 1;
      most = Math.max(most, running);
      expect(fs.existsSync(lockFile())).toBe(true);
      // Holds the lock across a timer turn, so the other tasks get the chance to (wrongly) run meanwhile.
      await sleep(1);
      running -= 1;
      return index;
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) => withFolderLock(folder, () => task(index), timing)),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(1);
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('releases the lock when the task fails', async () => {
    await expect(withFolderLock(folder, () => Promise.reject(new Error('broken')), timing)).rejects.toThrow('broken');
    expect(fs.existsSync(lockFile())).toBe(false);
    await expect(withFolderLock(folder, () => Promise.resolve('next'), timing)).resolves.toBe('next');
  });

  it('waits while another process holds the lock file, and runs once it is gone', async () => {
    fs.mkdirSync(folder);
    fs.writeFileSync(lockFile(), 'other-process');
    let ran = false;
    const waiting = withFolderLock(folder, async () => (ran = true), timing);
    // Time is the point: proving the task did not run needs a while in which it could have.
    await sleep(50);
    expect(ran).toBe(false);
    fs.rmSync(lockFile());
    await expect(waiting).resolves.toBe(true);
  });

  it('refuses with WorkspaceBusy when a fresh lock is held past the wait', async () => {
    fs.mkdirSync(folder);
    fs.writeFileSync(lockFile(), 'other-process');
    await expect(
      withFolderLock(folder, () => Promise.resolve(), { staleMs: 30_000, waitMs: 30 }),
    ).rejects.toMatchObject({
      definition: WorkspaceErrors.Busy,
    });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe('other-process');
  });

  it('breaks a lock file left by a process that died holding it', async () => {
    fs.mkdirSync(folder);
    fs.writeFileSync(lockFile(), 'dead-process');
    const then = new Date(Date.now() - 31_000);
    fs.utimesSync(lockFile(), then, then);
    await expect(withFolderLock(folder, () => Promise.resolve('ran'), timing)).resolves.toBe('ran');
    expect(fs.readdirSync(folder)).toEqual([]);
  });

  it('leaves a lock that another holder took over alone when releasing', async () => {
    await withFolderLock(
      folder,
      async () => {
        fs.writeFileSync(lockFile(), 'someone-else');
      },
      timing,
    );
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe('someone-else');
  });
});
