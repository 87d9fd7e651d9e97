import { CliUsageError, parseGraphRagArgs } from './cli-args';

describe('parseGraphRagArgs', () => {
  it('reads every option', () => {
    expect(
      parseGraphRagArgs([
        '--query',
        ' test ',
        '--format',
        'text',
        '--fusion-depth',
        '0',
        '--budget',
        '500',
        '--code-root',
        'src',
      ]),
    ).toEqual({
      help: false,
      query: 'test',
      format: 'text',
      fusionDepth: 0,
      budget: 500,
      codeRoot: 'src',
    });
  });

  it('defaults to JSON output and the tool defaults', () => {
    expect(parseGraphRagArgs(['-q', 'x'])).toEqual({
      help: false,
      query: 'x',
      format: 'json',
      fusionDepth: undefined,
      budget: undefined,
      codeRoot: undefined,
    });
  });

  it.each([
    [[], '--query is required'],
    [['--query', '   '], '--query is required'],
    [['--query', 'x', '--fusion-depth', '-1'], '--fusion-depth'],
    [['--query', 'x', '--fusion-depth', '6'], 'between 0 and 5'],
    [['--query', 'x', '--budget', '1e9'], 'must be an integer'],
    [['--query', 'x', 'extra'], 'Unexpected argument'],
    [['--query'], 'argument missing'],
  ])('rejects %j', (argv, message) => {
    expect(() => parseGraphRagArgs(argv)).toThrow(CliUsageError);
    expect(() => parseGraphRagArgs(argv)).toThrow(message);
  });
});
