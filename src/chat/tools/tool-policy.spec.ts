import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolPolicy } from './tool-policy';

const READ_ONLY = true;
const WRITES = false;

/** Thrown message of a load, failing the test when the load succeeds. */
function loadError(source: string): string {
  let caught: unknown;
  try {
    ToolPolicy.load(source);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  return (caught as Error).message;
}

describe('ToolPolicy', () => {
  describe('default policy', () => {
    const policy = ToolPolicy.load(undefined);

    it('runs read-only tools automatically', () => {
      expect(policy.mode('user', 'search_objects', READ_ONLY)).toBe('auto');
    });

    it('asks before a tool that writes', () => {
      expect(policy.mode('user', 'create_ticket', WRITES)).toBe('confirm');
    });

    it.each([
      ['read_file', READ_ONLY],
      ['list_files', READ_ONLY],
      ['write_file', WRITES],
    ])('runs the workspace tool %s automatically', (tool, readOnly) => {
      expect(policy.mode('user', tool, readOnly)).toBe('auto');
    });

    it('is also what an empty source gives', () => {
      expect(ToolPolicy.load('').mode('user', 'create_ticket', WRITES)).toBe('confirm');
      expect(ToolPolicy.load('').mode('user', 'write_file', WRITES)).toBe('auto');
    });
  });

  describe('inline JSON', () => {
    const policy = ToolPolicy.load(
      JSON.stringify({
        viewer: { allow: ['@read_only', 'list_files'], auto: ['*'] },
        editor: { deny: ['delete_*', 'drop.table'], auto: ['@read_only', 'kn_*', 'get_*_by_id'] },
        locked: { allow: ['*'], deny: ['*'] },
      }),
    );

    it('limits an account type to the tools it allows', () => {
      expect(policy.mode('viewer', 'search_objects', READ_ONLY)).toBe('auto');
      expect(policy.mode('viewer', 'list_files', READ_ONLY)).toBe('auto');
      expect(policy.mode('viewer', 'write_file', WRITES)).toBe('unavailable');
      expect(policy.mode('viewer', 'create_ticket', WRITES)).toBe('unavailable');
    });

    it('makes denied patterns unavailable even when allowed', () => {
      expect(policy.mode('editor', 'delete_object', WRITES)).toBe('unavailable');
      expect(policy.mode('editor', 'delete_', READ_ONLY)).toBe('unavailable');
      expect(policy.mode('locked', 'search_objects', READ_ONLY)).toBe('unavailable');
    });

    it('runs auto patterns unasked and asks for the rest of what is allowed', () => {
      expect(policy.mode('editor', 'kn_update', WRITES)).toBe('auto');
      expect(policy.mode('editor', 'get_order_by_id', WRITES)).toBe('auto');
      expect(policy.mode('editor', 'search_objects', READ_ONLY)).toBe('auto');
      expect(policy.mode('editor', 'create_ticket', WRITES)).toBe('confirm');
    });

    it('replaces the default auto list when an account type gives its own', () => {
      expect(policy.mode('editor', 'write_file', WRITES)).toBe('confirm');
    });

    it('anchors patterns and matches everything but * literally', () => {
      expect(policy.mode('editor', 'my_kn_update', WRITES)).toBe('confirm');
      expect(policy.mode('editor', 'kn_update_all', WRITES)).toBe('auto');
      expect(policy.mode('editor', 'undelete_object', WRITES)).toBe('confirm');
      expect(policy.mode('editor', 'dropXtable', WRITES)).toBe('confirm');
      expect(policy.mode('editor', 'drop.table', WRITES)).toBe('unavailable');
    });

    it('falls back to the default rule for an unknown account type', () => {
      expect(policy.mode('guest', 'create_ticket', WRITES)).toBe('confirm');
      expect(policy.mode('guest', 'search_objects', READ_ONLY)).toBe('auto');
      expect(policy.mode('guest', 'write_file', WRITES)).toBe('auto');
    });

    it('lets a policy replace the default rule itself', () => {
      const strict = ToolPolicy.load('{"default": {"auto": []}}');
      expect(strict.mode('guest', 'search_objects', READ_ONLY)).toBe('confirm');
      expect(strict.mode('guest', 'write_file', WRITES)).toBe('confirm');
    });

    it('fills missing fields of a rule from the default', () => {
      const partial = ToolPolicy.load('  {"auditor": {"deny": ["write_file"]}}');
      expect(partial.mode('auditor', 'write_file', WRITES)).toBe('unavailable');
      expect(partial.mode('auditor', 'read_file', READ_ONLY)).toBe('auto');
      expect(partial.mode('auditor', 'create_ticket', WRITES)).toBe('confirm');
    });
  });

  describe('invalid policies', () => {
    it('names CHAT_TOOL_POLICY when the JSON does not parse', () => {
      expect(loadError('{"viewer": ')).toBe('CHAT_TOOL_POLICY is not valid JSON');
    });

    it.each([
      ['allow', '{"viewer": {"allow": "search"}}'],
      ['deny', '{"viewer": {"deny": null}}'],
      ['auto', '{"viewer": {"auto": ["search", 1]}}'],
    ])('names the account type and field when %s is not a list of patterns', (field, source) => {
      expect(loadError(source)).toBe(`CHAT_TOOL_POLICY.viewer.${field} must be an array of tool name patterns`);
    });
  });

  describe('policy file', () => {
    let dir: string;

    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tool-policy-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    const policyFile = (text: string): string => {
      const file = path.join(dir, 'policy.json');
      fs.writeFileSync(file, text);
      return file;
    };

    it('reads the policy from an absolute path', () => {
      const policy = ToolPolicy.load(policyFile(JSON.stringify({ viewer: { allow: ['@read_only'] } })));
      expect(policy.mode('viewer', 'search_objects', READ_ONLY)).toBe('auto');
      expect(policy.mode('viewer', 'create_ticket', WRITES)).toBe('unavailable');
      expect(policy.mode('user', 'create_ticket', WRITES)).toBe('confirm');
    });

    it('names the missing file', () => {
      const missing = path.join(dir, 'absent.json');
      expect(loadError(missing)).toBe(`CHAT_TOOL_POLICY file ${missing} does not exist`);
    });

    it('refuses a file that is not valid JSON', () => {
      expect(loadError(policyFile('viewer: {}'))).toBe('CHAT_TOOL_POLICY is not valid JSON');
    });

    it.each(['[]', 'null', '"viewer"', '3'])('refuses a file holding %s instead of an object', (text) => {
      expect(loadError(policyFile(text))).toBe(
        'CHAT_TOOL_POLICY must be an object of account type → {allow, deny, auto}',
      );
    });
  });
});
