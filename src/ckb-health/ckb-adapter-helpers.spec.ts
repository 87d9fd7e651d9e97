import { splitCommandLine } from '../config/ckb.config';
import { safeErrorText } from './mcp/ckb-error-text';

describe('CKB adapter helpers', () => {
  it('splits a CKB command line without a shell', () => {
    expect(splitCommandLine(`ckb mcp --preset core --repo "/my repo" 'a b' c\\ d`)).toEqual([
      'ckb',
      'mcp',
      '--preset',
      'core',
      '--repo',
      '/my repo',
      'a b',
      'c d',
    ]);
    expect(splitCommandLine('ckb; rm -rf / && echo $HOME')).toEqual(['ckb;', 'rm', '-rf', '/', '&&', 'echo', '$HOME']);
  });

  it('hides URLs in CKB error text and bounds its length', () => {
    expect(safeErrorText(new Error('POST https://user:token@ckb.internal/mcp failed'))).toBe('POST <url> failed');
    expect(safeErrorText('x'.repeat(1000))).toHaveLength(300);
  });
});
