import { SseDecoder } from './sse-decoder';

const STREAM =
  ': comment\r\n\r\n' +
  'event: message\r\nid: 1\r\ndata: {"a":1}\r\n\r\n' +
  'data: first line\rdata:second line\r\r' +
  'data: Grüße 世界\n\n' +
  'retry: 10\ndata\n\n';
const EVENTS = ['{"a":1}', 'first line\nsecond line', 'Grüße 世界', ''];

function decodeInPieces(bytes: Buffer, size: number): string[] {
  const decoder = new SseDecoder();
  const events: string[] = [];
  for (let start = 0; start < bytes.length; start += size)
    events.push(...decoder.push(bytes.subarray(start, start + size)));
  return [...events, ...decoder.end()];
}

describe('SseDecoder', () => {
  it.each([1, 2, 3, 5, 1000])('decodes the same events from %i-byte pieces', (size) => {
    expect(decodeInPieces(Buffer.from(STREAM, 'utf8'), size)).toEqual(EVENTS);
  });

  it('does not end an event at a \\r\\n split between two pieces', () => {
    const decoder = new SseDecoder();

    expect(decoder.push(Buffer.from('data: a\r'))).toEqual([]);
    expect(decoder.push(Buffer.from('\ndata: b\r'))).toEqual([]);
    expect(decoder.push(Buffer.from('\n\r\n'))).toEqual(['a\nb']);
  });

  it('delivers a last event the body ends without its blank line', () => {
    const decoder = new SseDecoder();

    expect(decoder.push(Buffer.from('data: [DONE]'))).toEqual([]);
    expect(decoder.end()).toEqual(['[DONE]']);
  });
});
