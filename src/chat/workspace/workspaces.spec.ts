import { Logger } from '@nestjs/common';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WorkspaceConfig } from '../../config/chat.config';
import { AppException } from '../../common/errors/app.exception';
import { LocalizedDetails } from '../../common/errors/localized-details';
import { ChatErrors } from '../chat.errors';
import { realErrorPresenter } from '../../../test/support/unit/i18n';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { AccountSpace } from './account-space';
import { Workspace } from './workspace';
import { accountFolderName } from './workspace-paths';
import { Workspaces } from './workspaces';

const ALICE = accountFolderName('alice');
const BOB = accountFolderName('bob');

describe('Workspaces', () => {
  let parent: string;
  let root: string;

  let presenter: ErrorPresenter;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    presenter = await realErrorPresenter();
  });
  beforeEach(() => {
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'workspaces-'));
    root = path.join(parent, 'root');
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  const workspaces = (limits: Partial<WorkspaceConfig> = {}) =>
    new Workspaces({
      root,
      ttlSeconds: 3600,
      ephemeralTtlSeconds: 600,
      maxFileBytes: 64,
      maxBytes: 100,
      maxFiles: 3,
      account: { maxSessions: 100, maxBytes: 100_000, maxEntries: 1000 },
      ...limits,
    });

  const rejection = async (attempt: Promise<unknown>): Promise<Error> => {
    const error = await attempt.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  };

  /** A workspace refusal, its details (as the model reads them in English) matching `message`, no host path in them. */
  const refused = async (attempt: Promise<unknown>, message: RegExp | string) => {
    const error = await rejection(attempt);
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).definition.code).toMatch(/^agentRetrieval\.\w+\.Workspace/);
    const text = presenter.detailsText(error as AppException, 'en-US');
    expect(text).toMatch(message);
    expect(text).not.toContain(parent);
  };

  describe('open', () => {
    it('generates a sess_ id with 24 hex characters, in the account folder, creating the root lazily', async () => {
      const store = workspaces();
      expect(fs.existsSync(root)).toBe(false);
      const workspace = await store.open(undefined, 'alice');
      expect(workspace.sessionId).toMatch(/^sess_[0-9a-f]{24}$/);
      expect(ALICE).toMatch(/^[0-9a-f]{64}$/);
      expect(workspace.path).toBe(path.join(fs.realpathSync(root), ALICE, workspace.sessionId));
      expect(fs.statSync(workspace.path).isDirectory()).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(workspace.path, '.owner.json'), 'utf8'))).toEqual({
        account: 'alice',
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        ephemeral: true,
      });
      expect(fs.existsSync(path.join(workspace.path, '.touched'))).toBe(true);
      expect(fs.readdirSync(path.join(root, ALICE))).toEqual([workspace.sessionId]);
    });

    it('creates nothing until a session is first used', async () => {
      const store = workspaces();
      const session = store.session(undefined, 'alice');
      expect(session.folder).toBe(`${ALICE}/${session.sessionId}`);
      expect(fs.existsSync(root)).toBe(false);
      await session.workspace();
      expect(fs.readdirSync(path.join(root, ALICE))).toEqual([session.sessionId]);
    });

    it('records a session the client named as not ephemeral', async () => {
      const workspace = await workspaces().open('named', 'alice');
      expect(JSON.parse(fs.readFileSync(path.join(workspace.path, '.owner.json'), 'utf8'))).not.toHaveProperty(
        'ephemeral',
      );
    });

    it.each(['alice/../bob', '../../etc', 'é 𝄞 \u0000', ''])(
      'keeps the account id %j out of the path, as a SHA-256 folder name',
      async (accountId) => {
        const workspace = await workspaces().open('s', accountId);
        expect(path.relative(fs.realpathSync(root), workspace.path)).toBe(path.join(accountFolderName(accountId), 's'));
      },
    );

    it('keeps a valid given id and reopens the same folder for its owner', async () => {
      const store = workspaces();
      const first = await store.open('chat-1_A', 'alice');
      await first.write('note.txt', 'kept');
      const again = await store.open('chat-1_A', 'alice');
      expect(again.path).toBe(first.path);
      await expect(again.read('note.txt')).resolves.toBe('kept');
    });

    it.each(['', 'a/b', '../x', 'a.b', 'has space', 'é', 'x'.repeat(129)])(
      'rejects the session id %j with a 400 on session_id',
      async (sessionId) => {
        const error = await rejection(workspaces().open(sessionId, 'alice'));
        expect(error).toBeInstanceOf(AppException);
        expect(error).toMatchObject({
          definition: ChatErrors.InvalidRequest,
          details: new LocalizedDetails('chat.request.sessionId', { param: 'session_id' }),
        });
        expect(fs.existsSync(root)).toBe(false);
      },
    );

    it('accepts a 128-character id', async () => {
      const id = 'a'.repeat(128);
      await expect(workspaces().open(id, 'alice')).resolves.toMatchObject({ sessionId: id });
    });

    it('gives another account using the same session id a workspace of its own', async () => {
      const store = workspaces();
      await (await store.open('shared', 'alice')).write('note.txt', 'alice only');
      const bobs = await store.open('shared', 'bob');
      expect(bobs.path).toBe(path.join(fs.realpathSync(root), BOB, 'shared'));
      await expect(bobs.list()).resolves.toEqual([]);
      await refused(bobs.read('note.txt'), 'file "note.txt" not found');
    });

    it('still answers 403 SessionForbidden when a folder records another owner', async () => {
      const store = workspaces();
      const workspace = await store.open('tampered', 'alice');
      fs.writeFileSync(path.join(workspace.path, '.owner.json'), JSON.stringify({ account: 'mallory' }));
      const error = await rejection(store.open('tampered', 'alice'));
      expect(error).toBeInstanceOf(AppException);
      expect(error).toMatchObject({ definition: ChatErrors.SessionForbidden, status: 403 });
    });

    it("refuses a symbolic link in a session's place without reading through it", async () => {
      const outside = path.join(parent, 'outside');
      fs.mkdirSync(outside);
      // Read through the link, this record would make the answer a 403 instead.
      fs.writeFileSync(path.join(outside, '.owner.json'), JSON.stringify({ account: 'bob' }));
      fs.mkdirSync(path.join(root, ALICE), { recursive: true });
      fs.symlinkSync(outside, path.join(root, ALICE, 'linked'));
      const error = await rejection(workspaces().open('linked', 'alice'));
      expect(error.message).toMatch(/not a plain folder/);
      expect(fs.readdirSync(outside)).toEqual(['.owner.json']);
    });

    it('lets concurrent opens of one new session all succeed for one owner', async () => {
      const store = workspaces();
      const opened = await Promise.all(Array.from({ length: 8 }, () => store.open('race', 'alice')));
      expect(new Set(opened.map((workspace) => workspace.path)).size).toBe(1);
      expect(fs.readdirSync(opened[0].path).sort()).toEqual(['.owner.json', '.touched']);
    });

    it('gives a session id raced by two accounts to each of them, apart', async () => {
      const store = workspaces();
      const accounts = ['alice', 'bob', 'alice', 'bob', 'alice', 'bob'];
      const opened = await Promise.all(accounts.map((account) => store.open('contested', account)));
      expect(new Set(opened.map((workspace) => workspace.path)).size).toBe(2);
      for (const [folder, account] of [
        [ALICE, 'alice'],
        [BOB, 'bob'],
      ]) {
        const record = fs.readFileSync(path.join(root, folder, 'contested', '.owner.json'), 'utf8');
        expect(JSON.parse(record)).toMatchObject({ account });
      }
    });
  });

  describe('files', () => {
    let workspace: Workspace;
    beforeEach(async () => {
      workspace = await workspaces({ maxFiles: 10 }).open('files', 'alice');
    });

    it('writes UTF-8 and reads it back, creating parent folders', async () => {
      await expect(workspace.write('notes/day1/a.md', '你好 world')).resolves.toEqual({
        path: 'notes/day1/a.md',
        bytes: 12,
      });
      await expect(workspace.read('notes/day1/a.md')).resolves.toBe('你好 world');
      await expect(workspace.read('./notes//day1/../day1/a.md')).resolves.toBe('你好 world');
      expect(fs.readFileSync(path.join(workspace.path, 'notes', 'day1', 'a.md'))).toEqual(Buffer.from('你好 world'));
    });

    it('replaces an existing file', async () => {
      await workspace.write('a.txt', 'first version');
      await workspace.write('a.txt', 'second');
      await expect(workspace.read('a.txt')).resolves.toBe('second');
    });

    it('lists one level, sorted, without hidden files, paths relative to the root', async () => {
      await workspace.write('b.txt', 'bb');
      await workspace.write('a.txt', 'a');
      await workspace.write('.hidden', 'x');
      await workspace.write('docs/inner/deep.txt', 'deep');
      await workspace.write('docs/readme.md', 'four');
      await expect(workspace.list()).resolves.toEqual([
        { path: 'a.txt', type: 'file', size: 1 },
        { path: 'b.txt', type: 'file', size: 2 },
        { path: 'docs', type: 'directory', size: 0 },
      ]);
      await expect(workspace.list('docs/')).resolves.toEqual([
        { path: 'docs/inner', type: 'directory', size: 0 },
        { path: 'docs/readme.md', type: 'file', size: 4 },
      ]);
    });

    it('reads a GBK file with encoding gbk, and refuses it as UTF-8', async () => {
      fs.writeFileSync(path.join(workspace.path, 'gbk.txt'), Buffer.from([0xc4, 0xe3, 0xba, 0xc3]));
      await expect(workspace.read('gbk.txt', 'gbk')).resolves.toBe('你好');
      await refused(workspace.read('gbk.txt'), 'file "gbk.txt" is not valid utf-8 text; try encoding "gbk"');
    });

    it('reports missing files and folders by their relative path', async () => {
      await refused(workspace.read('a.txt'), 'file "a.txt" not found');
      await refused(workspace.list('nowhere'), 'folder "nowhere" not found');
      await workspace.write('a.txt', 'x');
      await refused(workspace.list('a.txt'), 'path "a.txt" is a file, not a folder');
      await refused(workspace.read('.'), 'path "." is a folder, not a file');
      await refused(workspace.write('a.txt/b.txt', 'x'), 'path "a.txt/b.txt" goes through "a.txt", which is a file');
    });

    it.each([
      ['../x', 'path "../x" escapes the workspace'],
      ['a/../../x', 'path "a/../../x" escapes the workspace'],
      ['a\\..\\..\\x', 'escapes the workspace'],
      ['..', 'path ".." escapes the workspace'],
      ['/etc/passwd', 'path "/etc/passwd" is absolute'],
      ['C:\\x', 'is absolute'],
      ['c:x', 'is absolute'],
      ['\\\\server\\share\\x', 'is absolute'],
      ['a\0b', 'contains a NUL byte'],
      ['', 'path must not be empty'],
      ['.owner.json', 'names a reserved file'],
      ['.touched', 'names a reserved file'],
      ['sub/.owner.json.tmp', 'names a reserved file'],
    ])('refuses the path %j before any I/O', async (relative, message) => {
      // A workspace whose folder is gone answers "no longer exists" to anything that reaches the disk.
      const limits = { maxFileBytes: 64, maxBytes: 100, maxFiles: 3 };
      const account = new AccountSpace(path.join(parent, 'account'), { maxSessions: 1, maxBytes: 100, maxEntries: 3 });
      const ghost = new Workspace('ghost', path.join(parent, 'gone'), limits, account);
      await refused(ghost.read(relative), message);
      await refused(workspace.write(relative, 'x'), message);
      await refused(workspace.read(relative), message);
      await refused(workspace.list(relative), message);
      expect(fs.readdirSync(workspace.path).sort()).toEqual(['.owner.json', '.touched']);
      expect(fs.existsSync(path.join(parent, 'x'))).toBe(false);
    });

    it('refuses a symbolic link inside the workspace that points out of it', async () => {
      fs.writeFileSync(path.join(parent, 'secret.txt'), 'secret');
      fs.symlinkSync(parent, path.join(workspace.path, 'out'));
      fs.symlinkSync(path.join(parent, 'secret.txt'), path.join(workspace.path, 'secret.txt'));
      await refused(workspace.read('out/secret.txt'), 'path "out/secret.txt" goes through a symbolic link');
      await refused(workspace.write('out/planted.txt', 'x'), 'goes through a symbolic link');
      await refused(workspace.list('out'), 'goes through a symbolic link');
      await refused(workspace.read('secret.txt'), 'goes through a symbolic link');
      await refused(workspace.write('secret.txt', 'overwritten'), 'goes through a symbolic link');
      expect(fs.readFileSync(path.join(parent, 'secret.txt'), 'utf8')).toBe('secret');
      expect(fs.existsSync(path.join(parent, 'planted.txt'))).toBe(false);
    });

    it('refuses a symlinked sub-folder even when it points inside', async () => {
      await workspace.write('real/a.txt', 'inside');
      fs.symlinkSync(path.join(workspace.path, 'real'), path.join(workspace.path, 'alias'));
      await refused(workspace.read('alias/a.txt'), 'path "alias/a.txt" goes through a symbolic link');
      await refused(workspace.write('alias/b.txt', 'x'), 'goes through a symbolic link');
      await refused(workspace.list('alias'), 'goes through a symbolic link');
      expect(fs.existsSync(path.join(workspace.path, 'real', 'b.txt'))).toBe(false);
      expect((await workspace.list()).map((entry) => entry.path)).toEqual(['real']);
    });
  });

  describe('limits', () => {
    it('refuses a write over the file limit, counting UTF-8 bytes', async () => {
      const workspace = await workspaces().open('big', 'alice');
      await refused(workspace.write('a.txt', 'x'.repeat(65)), 'write of 65 bytes exceeds the 64-byte file limit');
      await refused(workspace.write('b.txt', '你'.repeat(22)), 'write of 66 bytes exceeds the 64-byte file limit');
      await expect(workspace.write('c.txt', 'x'.repeat(64))).resolves.toEqual({ path: 'c.txt', bytes: 64 });
    });

    it('refuses reading a file over the file limit', async () => {
      const workspace = await workspaces().open('big-read', 'alice');
      fs.writeFileSync(path.join(workspace.path, 'big.txt'), 'x'.repeat(65));
      await refused(workspace.read('big.txt'), 'file "big.txt" is 65 bytes, over the 64-byte file limit');
    });

    it('refuses a write that would take the workspace over its total, counting a replacement as the difference', async () => {
      const workspace = await workspaces().open('total', 'alice');
      await workspace.write('a.txt', 'a'.repeat(50));
      await workspace.write('sub/b.txt', 'b'.repeat(50));
      await refused(
        workspace.write('c.txt', 'c'),
        'write of 1 bytes would bring the workspace to 101 bytes, over its 100-byte limit',
      );
      await workspace.write('a.txt', 'a'.repeat(40));
      await expect(workspace.write('c.txt', 'c'.repeat(10))).resolves.toEqual({ path: 'c.txt', bytes: 10 });
      await refused(workspace.write('a.txt', 'a'.repeat(41)), 'bring the workspace to 101 bytes');
    });

    it('refuses a new file beyond the file count but still replaces existing ones', async () => {
      const workspace = await workspaces().open('count', 'alice');
      await workspace.write('a.txt', 'a');
      await workspace.write('b/b.txt', 'b');
      await workspace.write('c.txt', 'c');
      await refused(workspace.write('d.txt', 'd'), 'the workspace already holds 3 files, its limit');
      await expect(workspace.write('b/b.txt', 'bb')).resolves.toEqual({ path: 'b/b.txt', bytes: 2 });
    });

    it('lets only as many concurrent writes through as the limits allow', async () => {
      const workspace = await workspaces({ maxBytes: 1000 }).open('concurrent', 'alice');
      const results = await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map((name) => workspace.write(name, name)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
      expect(fs.readdirSync(workspace.path).filter((name) => !name.startsWith('.'))).toHaveLength(3);
    });
  });

  describe('sweep', () => {
    const setTouched = (folder: string, secondsAgo: number) => {
      const then = new Date(Date.now() - secondsAgo * 1000);
      fs.utimesSync(path.join(folder, '.touched'), then, then);
    };

    it('removes a workspace idle past the TTL and keeps a fresh one', async () => {
      const store = workspaces({ ttlSeconds: 60 });
      const idle = await store.open('idle', 'alice');
      const fresh = await store.open('fresh', 'alice');
      await idle.write('notes/a.txt', 'old');
      setTouched(idle.path, 61);
      setTouched(fresh.path, 59);
      await expect(store.sweep()).resolves.toEqual([`${ALICE}/idle`]);
      expect(fs.existsSync(idle.path)).toBe(false);
      expect(fs.existsSync(fresh.path)).toBe(true);
    });

    it('counts reads and writes as use', async () => {
      const store = workspaces({ ttlSeconds: 60 });
      const workspace = await store.open('busy', 'alice');
      await workspace.write('a.txt', 'a');
      setTouched(workspace.path, 120);
      await workspace.read('a.txt');
      await expect(store.sweep()).resolves.toEqual([]);
      setTouched(workspace.path, 120);
      await workspace.write('a.txt', 'b');
      await expect(store.sweep(Date.now() + 59_000)).resolves.toEqual([]);
      await expect(store.sweep(Date.now() + 61_000)).resolves.toEqual([`${ALICE}/busy`]);
    });

    it('never follows a symlink in the root to a folder outside it', async () => {
      const store = workspaces({ ttlSeconds: 60 });
      await store.open('real', 'alice');
      const outside = path.join(parent, 'outside');
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(outside, 'keep.txt'), 'keep');
      fs.symlinkSync(outside, path.join(root, 'linked'));
      fs.symlinkSync(outside, path.join(root, ALICE, 'inner'));
      await expect(store.sweep(Date.now() + 3_600_000)).resolves.toEqual([`${ALICE}/real`]);
      expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
      expect(fs.lstatSync(path.join(root, 'linked')).isSymbolicLink()).toBe(true);
    });

    it('removes a workspace the server named after WORKSPACE_EPHEMERAL_TTL_S, a named one only after WORKSPACE_TTL_S', async () => {
      const store = workspaces({ ttlSeconds: 3600, ephemeralTtlSeconds: 600 });
      const ephemeral = await store.open(undefined, 'alice');
      const named = await store.open('named', 'alice');
      setTouched(ephemeral.path, 601);
      setTouched(named.path, 601);
      await expect(store.sweep()).resolves.toEqual([`${ALICE}/${ephemeral.sessionId}`]);
      expect(fs.existsSync(named.path)).toBe(true);
      await expect(store.sweep(Date.now() + 3_000_000)).resolves.toEqual([`${ALICE}/named`]);
    });

    it('sweeps a session folder of the layout before account folders', async () => {
      const store = workspaces({ ttlSeconds: 60 });
      const legacy = path.join(root, 'legacy-session');
      fs.mkdirSync(legacy, { recursive: true });
      fs.writeFileSync(path.join(legacy, '.owner.json'), JSON.stringify({ account: 'alice' }));
      fs.writeFileSync(path.join(legacy, '.touched'), '');
      setTouched(legacy, 120);
      await expect(store.sweep()).resolves.toEqual(['legacy-session']);
      expect(fs.existsSync(legacy)).toBe(false);
    });

    it('sweeps on an interval once started, logging failures instead of throwing', async () => {
      jest.useFakeTimers();
      try {
        const store = workspaces({ ttlSeconds: 60 });
        const sweep = jest.spyOn(store, 'sweep').mockRejectedValueOnce(new Error('disk gone')).mockResolvedValue([]);
        const warn = jest.spyOn(Logger.prototype, 'warn');
        store.start();
        await jest.advanceTimersByTimeAsync(15_000);
        expect(sweep).toHaveBeenCalledTimes(1);
        expect(warn).toHaveBeenCalledWith('Workspace sweep failed: disk gone');
        await jest.advanceTimersByTimeAsync(15_000);
        expect(sweep).toHaveBeenCalledTimes(2);
        store.stop();
        await jest.advanceTimersByTimeAsync(60_000);
        expect(sweep).toHaveBeenCalledTimes(2);
      } finally {
        jest.useRealTimers();
      }
    });
  });
  describe('account quotas', () => {
    const quota = (account: Partial<WorkspaceConfig['account']>) =>
      workspaces({
        maxBytes: 1000,
        maxFiles: 100,
        account: { maxSessions: 100, maxBytes: 100_000, maxEntries: 1000, ...account },
      });

    it('refuses a workspace over WORKSPACE_ACCOUNT_MAX_SESSIONS, reopens existing ones, leaves other accounts alone', async () => {
      const store = quota({ maxSessions: 2 });
      await store.open('one', 'alice');
      await store.open(undefined, 'alice');
      await refused(store.open('three', 'alice'), 'this account already holds 2 workspaces, its limit');
      await refused(store.open(undefined, 'alice'), 'already holds 2 workspaces');
      await expect(store.open('one', 'alice')).resolves.toMatchObject({ sessionId: 'one' });
      await expect(store.open('three', 'bob')).resolves.toMatchObject({ sessionId: 'three' });
      expect(fs.readdirSync(path.join(root, ALICE)).filter((name) => !name.startsWith('.'))).toHaveLength(2);
    });

    it('lets concurrent new sessions of one account through only up to the quota', async () => {
      const store = quota({ maxSessions: 3 });
      const results = await Promise.allSettled(Array.from({ length: 12 }, () => store.open(undefined, 'alice')));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
      expect(fs.readdirSync(path.join(root, ALICE)).filter((name) => !name.startsWith('.'))).toHaveLength(3);
    });

    it("counts the bytes of all the account's workspaces, a replacement as the difference", async () => {
      const store = quota({ maxBytes: 100 });
      await (await store.open('a', 'alice')).write('x.txt', 'x'.repeat(60));
      const second = await store.open('b', 'alice');
      await refused(
        second.write('y.txt', 'y'.repeat(41)),
        "bring this account's workspaces to 101 bytes, over its 100-byte quota",
      );
      await expect(second.write('y.txt', 'y'.repeat(40))).resolves.toMatchObject({ bytes: 40 });
      await expect(second.write('y.txt', 'y'.repeat(30))).resolves.toMatchObject({ bytes: 30 });
      await expect((await store.open('b', 'bob')).write('y.txt', 'y'.repeat(64))).resolves.toMatchObject({ bytes: 64 });
    });

    it('counts files and the folders a write creates against WORKSPACE_ACCOUNT_MAX_FILES', async () => {
      const store = quota({ maxEntries: 4 });
      await (await store.open('a', 'alice')).write('d/e/f.txt', 'x');
      const second = await store.open('b', 'alice');
      await refused(
        second.write('g/h.txt', 'x'),
        "needs 2 new files or folders, but this account's workspaces already hold 3 of at most 4",
      );
      await expect(second.write('h.txt', 'x')).resolves.toMatchObject({ bytes: 1 });
      await expect(second.write('h.txt', 'replaced')).resolves.toMatchObject({ bytes: 8 });
      await refused(second.write('i.txt', 'x'), 'already hold 4 of at most 4');
    });

    it('lets only as many concurrent writes of one account through, over many sessions, as its quota allows', async () => {
      const store = quota({ maxBytes: 50 });
      const sessions = await Promise.all(['a', 'b', 'c', 'd'].map((id) => store.open(id, 'alice')));
      const writes = Array.from({ length: 20 }, (_, index) =>
        sessions[index % 4].write(`f${index}.txt`, 'x'.repeat(10)),
      );
      const results = await Promise.allSettled(writes);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(5);
      const files = sessions.flatMap((workspace) =>
        fs.readdirSync(workspace.path).filter((name) => !name.startsWith('.')),
      );
      expect(files).toHaveLength(5);
    });

    it('gives the quota back once the sweep removes a workspace', async () => {
      const store = quota({ maxSessions: 1 });
      const old = await store.open('old', 'alice');
      await refused(store.open('new', 'alice'), 'already holds 1 workspaces');
      const then = new Date(Date.now() - 7200 * 1000);
      fs.utimesSync(path.join(old.path, '.touched'), then, then);
      await expect(store.sweep()).resolves.toEqual([`${ALICE}/old`]);
      expect(fs.existsSync(path.join(root, ALICE))).toBe(false);
      await expect(store.open('new', 'alice')).resolves.toMatchObject({ sessionId: 'new' });
    });
  });

  describe('storage the service cannot write', () => {
    it.each(['EACCES', 'EROFS'])(
      'answers %s with a 503 WorkspaceUnavailable and an error log naming the root',
      async (code) => {
        const store = workspaces();
        const error = Object.assign(new Error(`${code}: mkdir '${root}'`), { code });
        const mkdir = jest.spyOn(fs.promises, 'mkdir').mockRejectedValue(error);
        const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
        try {
          const refusal = await rejection(store.open('s', 'alice'));
          expect(refusal).toMatchObject({
            definition: { code: 'agentRetrieval.ServiceUnavailable.WorkspaceUnavailable', status: 503 },
          });
          await refused(Promise.reject(refusal), 'workspaces cannot be written on this server at the moment');
          expect(logged).toHaveBeenCalledWith(
            expect.stringContaining(`Cannot write workspaces under ${root} (${code})`),
          );
        } finally {
          mkdir.mockRestore();
          logged.mockRestore();
        }
      },
    );
  });
});
