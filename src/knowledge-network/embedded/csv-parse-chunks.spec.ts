import { parse } from 'csv-parse/sync';
import { CsvChunkParser } from './csv-parse-chunks';

// Contract of the one non-public part of csv-parse this service relies on (see CsvChunkParser): fails
// when an upgrade renames `Parser#api` or changes how it is fed.
describe('CsvChunkParser (csv-parse incremental parser contract)', () => {
  const options = { bom: true, skip_empty_lines: true, trim: false };
  const text = 'id,note\r\nA1,"two\nlines"\r\nA2,"say ""hi"""\r\n';

  it('gives the records and lines of a whole-text parse when fed in pieces', () => {
    const whole = (
      parse(text, { ...options, info: true }) as unknown as { record: string[]; info: { lines: number } }[]
    ).map((entry) => [entry.info.lines, entry.record]);
    const parser = new CsvChunkParser(options);
    const bytes = Buffer.from(text);
    const pieces = [bytes.subarray(0, 12), bytes.subarray(12, 13), bytes.subarray(13)];
    const records = [...pieces.map((piece) => parser.write(Buffer.from(piece))), parser.end()].flatMap(
      (result) => result.records,
    );
    expect(records.map((entry) => [entry.info.lines, entry.record])).toEqual(whole);
    expect(whole).toEqual([
      [1, ['id', 'note']],
      [3, ['A1', 'two\nlines']],
      [4, ['A2', 'say "hi"']],
    ]);
  });

  it('returns a malformed record as csv-parse error with its line, after the records before it', () => {
    const parser = new CsvChunkParser(options);
    const written = parser.write(Buffer.from('a,b\n1,2\n3\n'));
    expect(written.error).toBeUndefined(); // the last record of a chunk may go on in the next one
    const result = parser.end();
    expect([...written.records, ...result.records].map((entry) => entry.record)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(result.error).toMatchObject({ code: 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH', lines: 3 });
  });
});
