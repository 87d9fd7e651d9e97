#!/usr/bin/env node
// Writes a synthetic BKN network with CSV data for benchmarks:
//   node bench/gen-network.js [--instances 100000] [--out bench/.data/kn-100000-42/synthetic] [--seed 42] [--id synthetic]
// Same layout as examples/networks/* (network.bkn, object_types/, relation_types/, action_types/,
// concept_groups/, data/<type>.csv, data/<view>.csv); deterministic for a seed.
const { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { createRandom } = require('../scripts/lib/seeded-random');
const { csvLine } = require('../scripts/lib/csv');
const schema = require('./lib/synthetic-schema');
const words = require('./lib/vocabulary');

function parseArgs(argv) {
  const options = { instances: 100000, seed: '42', id: 'synthetic', out: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--instances') options.instances = Number(value);
    else if (flag === '--seed') options.seed = value;
    else if (flag === '--id') options.id = value;
    else if (flag === '--out') options.out = value;
    else throw new Error(`unknown flag ${flag} (use --instances N --out DIR --seed S --id ID)`);
  }
  if (!Number.isInteger(options.instances) || options.instances < schema.OBJECT_TYPES.length)
    throw new Error(`--instances must be an integer ≥ ${schema.OBJECT_TYPES.length}`);
  if (!/^[a-z][a-z0-9_]*$/.test(options.id)) throw new Error('--id must be lower-case snake_case');
  options.out = resolve(options.out ?? join(__dirname, '.data', `kn-${options.instances}-${options.seed}`, options.id));
  return options;
}

/** Instances per type from the shares; the largest type absorbs rounding so the total is exact. */
function countsFor(total) {
  const counts = Object.fromEntries(
    schema.OBJECT_TYPES.map((ot) => [ot.id, Math.max(1, Math.floor(total * ot.share))]),
  );
  counts.sales_order += total - Object.values(counts).reduce((sum, n) => sum + n, 0);
  return counts;
}

/** Zipf-like pick: early vocabulary entries are much more frequent, like real text. */
const zipf = (random, items) => items[Math.floor(items.length * random.next() ** 2.2)];
const sentence = (random, count) =>
  Array.from({ length: count }, () => zipf(random, random.chance(0.5) ? words.TEXT_WORDS : words.PRODUCT_WORDS)).join(
    ' ',
  );
const id = (prefix, n) => `${prefix}${String(n).padStart(7, '0')}`;
const date = (random) =>
  `202${random.int(3, 5)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;
const person = (random) => `${random.pick(words.LAST_NAMES)}${random.pick(words.FIRST_NAMES)}`;

const ROW_BUILDERS = {
  supplier: (random, n) => [
    id('S', n),
    `${zipf(random, words.PRODUCT_WORDS)} ${random.pick(['Co.', '有限公司', 'GmbH', 'Ltd.'])} ${n}`,
    random.pick(words.COUNTRIES),
    (1 + random.next() * 4).toFixed(1),
    sentence(random, 10),
  ],
  product: (random, n, counts) => [
    id('PR', n),
    `${random.pick(words.ADJECTIVES)} ${zipf(random, words.PRODUCT_WORDS)} ${n}`,
    random.pick(words.CATEGORIES),
    (random.int(100, 999999) / 100).toFixed(2),
    id('S', random.int(1, counts.supplier)),
    sentence(random, 14),
  ],
  customer: (random, n) => [
    id('C', n),
    person(random),
    random.pick(words.CITIES),
    random.pick(words.SEGMENTS),
    sentence(random, 8),
    date(random),
  ],
  sales_order: (random, n, counts) => [
    id('O', n),
    id('C', random.int(1, counts.customer)),
    id('PR', random.int(1, counts.product)),
    random.int(1, 5),
    (random.int(500, 500000) / 100).toFixed(2),
    random.pick(words.ORDER_STATUSES),
    sentence(random, 6),
    `${date(random)}T${String(random.int(0, 23)).padStart(2, '0')}:00:00Z`,
  ],
  ticket: (random, n, counts) => [
    id('T', n),
    id('O', random.int(1, counts.sales_order)),
    random.pick(words.TICKET_PRIORITIES),
    sentence(random, 3),
    sentence(random, 18),
    random.pick(words.TICKET_STATUSES),
    `${date(random)}T08:00:00Z`,
  ],
};

/** Rows per write: a 10M-instance table as one string is longer than V8 allows. */
const ROWS_PER_WRITE = 10000;

function writeTable(path, header, count, buildRow) {
  const fd = openSync(path, 'w');
  try {
    let lines = [csvLine(header)];
    for (let n = 1; n <= count; n += 1) {
      lines.push(csvLine(buildRow(n)));
      if (lines.length === ROWS_PER_WRITE) {
        writeSync(fd, `${lines.join('\n')}\n`);
        lines = [];
      }
    }
    if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
}

function writeDefinitions(out, options) {
  for (const folder of ['object_types', 'relation_types', 'action_types', 'concept_groups', 'data'])
    mkdirSync(join(out, folder), { recursive: true });
  writeFileSync(
    join(out, 'network.bkn'),
    schema.networkBkn(options.id, `合成基准网络 Synthetic ${options.instances}`, options.instances),
  );
  for (const ot of schema.OBJECT_TYPES)
    writeFileSync(join(out, 'object_types', `${ot.id}.bkn`), schema.objectTypeBkn(ot));
  for (const rt of schema.RELATION_TYPES)
    writeFileSync(join(out, 'relation_types', `${rt.id}.bkn`), schema.relationTypeBkn(rt));
  for (const at of schema.ACTION_TYPES)
    writeFileSync(join(out, 'action_types', `${at.id}.bkn`), schema.actionTypeBkn(at));
  writeFileSync(join(out, 'concept_groups', 'commerce.bkn'), schema.conceptGroupBkn());
}

function writeData(out, options, counts) {
  const random = createRandom(options.seed);
  for (const ot of schema.OBJECT_TYPES) {
    writeTable(
      join(out, 'data', `${ot.id}.csv`),
      ot.properties.map(([name]) => name),
      counts[ot.id],
      (n) => ROW_BUILDERS[ot.id](random, n, counts),
    );
  }
  // Distinct (customer, product) pairs: a favourite is listed once.
  const seen = new Set();
  const favourites = Math.max(1, Math.floor(options.instances / 10));
  writeTable(
    join(out, 'data', 'customer_product_view.csv'),
    ['customer_id', 'product_id', 'favored_at'],
    favourites,
    () => {
      for (;;) {
        const pair = [id('C', random.int(1, counts.customer)), id('PR', random.int(1, counts.product))];
        if (seen.has(pair.join())) continue;
        seen.add(pair.join());
        return [...pair, date(random)];
      }
    },
  );
  return favourites;
}

/** Writes the network described by `options` (see parseArgs); returns the per-type counts. */
function generateNetwork(options) {
  const started = process.hrtime.bigint();
  const counts = countsFor(options.instances);
  rmSync(options.out, { recursive: true, force: true });
  writeDefinitions(options.out, options);
  const viewRows = writeData(options.out, options, counts);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const summary = Object.entries(counts)
    .map(([type, n]) => `${type}=${n}`)
    .join(' ');
  console.log(
    `wrote ${options.instances} instances (${summary}; customer_product_view=${viewRows}) to ${options.out} in ${ms.toFixed(0)} ms`,
  );
  return counts;
}

module.exports = { generateNetwork, parseArgs };

if (require.main === module) {
  try {
    generateNetwork(parseArgs(process.argv.slice(2)));
  } catch (error) {
    console.error(`gen-network: ${error.message}`);
    process.exit(2);
  }
}
