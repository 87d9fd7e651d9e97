import { AppException } from '../common/errors/app.exception';
import { LocalizedDetails } from '../common/errors/localized-details';
import { ChatErrors } from './chat.errors';
import { AnswerText, boundedResult, callKey, ToolCallAssembly, utf8Prefix } from './turn-bounds';

const assembly = (keep = 4, argumentsBytes = 100) => new ToolCallAssembly({ keep, argumentsBytes });

function modelErrorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).definition).toBe(ChatErrors.ModelOutputInvalid);
    return ((error as AppException).details as LocalizedDetails).key;
  }
  throw new Error('expected a model_error');
}

const call = (name: string, args: string) => ({
  id: 'c',
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('ToolCallAssembly', () => {
  it('merges the deltas of each call by index', () => {
    const calls = assembly();
    calls.add({ index: 0, id: 'a', function: { name: 'kn_', arguments: '{"q":' } });
    calls.add({ index: 1, id: 'b', function: { name: 'read_file', arguments: '{}' } });
    calls.add({ index: 0, function: { name: 'search', arguments: '"x"}' } });
    expect(calls.calls()).toEqual([
      { id: 'a', type: 'function', function: { name: 'kn_search', arguments: '{"q":"x"}' } },
      { id: 'b', type: 'function', function: { name: 'read_file', arguments: '{}' } },
    ]);
  });

  it('closes gaps by order: 0, then 3, then 1', () => {
    const calls = assembly();
    calls.add({ index: 0, id: 'first', function: { name: 'a' } });
    calls.add({ index: 3, id: 'late', function: { name: 'b' } });
    calls.add({ index: 1, id: 'early', function: { name: 'a' } });
    expect(calls.calls().map((entry) => entry.id)).toEqual(['first', 'early', 'late']);
    expect(modelErrorOf(() => calls.add({ index: 8, function: { name: 'x' } }))).toBe('chat.model.toolCallIndex');
  });

  it.each([[-1], [1e9], [1.5], [Number.NaN], [1]])('refuses index %p as a model_error, at once', (index) => {
    expect(modelErrorOf(() => assembly().add({ index, function: { name: 'x' } }))).toBe('chat.model.toolCallIndex');
  });

  it('keeps the first `keep` calls and counts the rest without keeping them', () => {
    const calls = assembly(2);
    for (let index = 0; index < 5000; index += 1) {
      expect(calls.add({ index, id: `c${index}`, function: { name: 'x', arguments: '{}' } })).toBe(index < 2);
      calls.add({ index, function: { arguments: ' ' } });
    }
    expect(calls.calls()).toHaveLength(2);
    expect(calls.overflow).toBe(4998);
  });

  it('refuses a long id, a long name (even sent in pieces) and arguments over the bound', () => {
    expect(modelErrorOf(() => assembly().add({ index: 0, id: 'i'.repeat(257) }))).toBe('chat.model.toolCallId');
    const calls = assembly();
    calls.add({ index: 0, function: { name: 'n'.repeat(200) } });
    expect(modelErrorOf(() => calls.add({ index: 0, function: { name: 'n'.repeat(100) } }))).toBe(
      'chat.model.toolCallName',
    );
    const args = assembly(4, 10);
    args.add({ index: 0, function: { arguments: '{"a":' } });
    expect(modelErrorOf(() => args.add({ index: 0, function: { arguments: '"123456"}' } }))).toBe(
      'chat.model.toolCallArguments',
    );
    const late = assembly(1, 10);
    late.add({ index: 0, function: { name: 'a' } });
    expect(modelErrorOf(() => late.add({ index: 1, function: { arguments: 'x'.repeat(11) } }))).toBe(
      'chat.model.toolCallArguments',
    );
  });
});

describe('AnswerText', () => {
  it('passes text within the bound and cuts at it on a character boundary', () => {
    const text = new AnswerText(10, 100);
    expect(text.take('abc')).toBe('abc');
    expect(text.take('世界你好')).toBe('世界');
    expect(text.full).toBe(true);
    expect(text.take('more')).toBe('');
    expect(text.text()).toBe('abc世界');
  });

  it('keeps only a tail when asked to, and counts every answer of the turn', () => {
    const text = new AnswerText(100, 4);
    text.take('abcdef');
    expect(text.text()).toBe('cdef');
    text.reset();
    expect(text.text()).toBeNull();
    text.take('x'.repeat(94));
    expect(text.full).toBe(false);
    text.take('yy');
    expect(text.full).toBe(true);
  });
});

describe('utf8Prefix, boundedResult, callKey', () => {
  it('never splits a character', () => {
    expect(utf8Prefix('é世', 2)).toBe('é');
    expect(utf8Prefix('é世', 4)).toBe('é');
    expect(utf8Prefix('é世', 5)).toBe('é世');
    expect(utf8Prefix('abc', 0)).toBe('');
  });

  it('cuts a long result with a note and leaves a short one alone', () => {
    expect(boundedResult('short', 1024)).toBe('short');
    const cut = boundedResult('x'.repeat(5000), 1024);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1024);
    expect(cut).toMatch(/\[cut: the result is 5000 bytes, over the 1024-byte limit/);
  });

  it('names the same call written two ways alike, and calls differing in one argument apart', () => {
    expect(callKey(call('s', '{"a":1,"b":{"d":2,"c":3}}'))).toBe(callKey(call('s', '{"b":{"c":3,"d":2},"a":1}')));
    expect(callKey(call('s', '{"a":1}'))).not.toBe(callKey(call('s', '{"a":2}')));
    expect(callKey(call('s', 'not json'))).toBe('s\u0000not json');
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    expect(callKey(call('s', deep))).toBe(`s\u0000${deep}`);
  });
});
