// Minimal RFC 4180 CSV writing and reading for the data generators and their checker (no dependencies).
const { writeFileSync, readFileSync } = require('node:fs');

function csvField(value) {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(values) {
  return values.map(csvField).join(',');
}

/** CSV text of `rows` (objects) under `columns`, in that order; LF line ends. */
function csvText(columns, rows) {
  const lines = [csvLine(columns)];
  for (const row of rows) lines.push(csvLine(columns.map((column) => row[column])));
  return `${lines.join('\n')}\n`;
}

/** Writes csvText as UTF-8 without BOM; returns the row count. */
function writeCsv(path, columns, rows) {
  writeFileSync(path, csvText(columns, rows), 'utf8');
  return rows.length;
}

/** Parses a whole CSV file into { header, rows } (rows are objects keyed by header). */
function readCsv(path) {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  const records = parseRecords(text);
  const [header = [], ...body] = records;
  const rows = body.map((record) => Object.fromEntries(header.map((name, i) => [name, record[i] ?? ''])));
  return { header, rows, widths: body.map((record) => record.length) };
}

function parseRecords(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (char === '"') quoted = !quoted;
    else if (quoted) field += char;
    else if (char === ',') endField();
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
    } else field += char;
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

module.exports = { csvLine, csvText, writeCsv, readCsv };
