// Just enough BKN reading for the data checker: frontmatter scalars, `###` sections, Markdown tables
// and `Key: value` lines. Deliberately independent of the service's parser so each can check the other.
const { readFileSync } = require('node:fs');

function splitFrontmatter(text) {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { meta: {}, body: text };
  const meta = {};
  for (const line of match[1].split(/\r?\n/)) {
    const pair = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (pair) meta[pair[1]] = pair[2].trim();
  }
  return { meta, body: match[2] };
}

/** `###` heading → its text (up to the next `##`/`###` heading); `####` stays inside. */
function sections(body) {
  const result = {};
  let current;
  for (const line of body.split(/\r?\n/)) {
    const heading = /^(#{2,3})\s+(.*)$/.exec(line);
    if (heading) {
      current = heading[1] === '###' ? heading[2].trim() : undefined;
      if (current) result[current] = [];
    } else if (current) result[current].push(line);
  }
  return Object.fromEntries(Object.entries(result).map(([name, lines]) => [name, lines.join('\n')]));
}

/** Every Markdown table row in `text`, as objects keyed by the header cells. */
function tableRows(text = '') {
  const rows = [];
  let header;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim().startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
    if (!header) header = cells;
    else if (!cells.every((cell) => /^:?-+:?$/.test(cell))) rows.push(Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
  }
  return rows;
}

function keyLine(text = '', key) {
  const match = new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(text);
  return match ? match[1].trim() : undefined;
}

function readBkn(path) {
  const { meta, body } = splitFrontmatter(readFileSync(path, 'utf8'));
  return { meta, body, sections: sections(body) };
}

module.exports = { readBkn, tableRows, keyLine };
