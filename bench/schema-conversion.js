#!/usr/bin/env node
// Converting a large cyclic API spec to function-call parameters (action recall), against a plain deep
// copy of the same spec as the baseline, in the same process and run.
//   node bench/schema-conversion.js [--schemas 200] [--rounds 50]
/* global structuredClone -- Node ≥ 17 global */
const { performance } = require('node:perf_hooks');
const { parseFlags } = require('./lib/flags');
const { ensureBuilt } = require('./lib/service');
const { record } = require('./lib/summary');

/**
 * `schemas` object schemas under `$defs`, each with scalar fields and references to the next two —
 * the last ones pointing back to the first, so every chain of references is a cycle.
 */
function cyclicSchema(schemas) {
  const defs = {};
  for (let i = 0; i < schemas; i++) {
    defs[`Node${i}`] = {
      type: 'object',
      description: `node ${i}`,
      properties: {
        id: { type: 'string' },
        count: { type: 'integer', minimum: 0 },
        tags: { type: 'array', items: { type: 'string' } },
        next: { $ref: `#/$defs/Node${(i + 1) % schemas}` },
        other: { $ref: `#/$defs/Node${(i + 7) % schemas}` },
      },
      required: ['id'],
    };
  }
  return { type: 'object', properties: { root: { $ref: '#/$defs/Node0' } }, $defs: defs };
}

function timePerCall(fn, rounds) {
  fn();
  const started = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return (performance.now() - started) / rounds;
}

function main() {
  const options = parseFlags(process.argv.slice(2), { schemas: 200, rounds: 50 });
  ensureBuilt();
  const { convertMcpSchemaToFunctionCall } = require('../dist/actionrecall/schema-converter');
  const spec = cyclicSchema(options.schemas);
  const size = JSON.stringify(spec).length;
  const copyMs = timePerCall(() => structuredClone(spec), options.rounds);
  const convertMs = timePerCall(() => convertMcpSchemaToFunctionCall(spec), options.rounds);
  const output = JSON.stringify(convertMcpSchemaToFunctionCall(spec)).length;
  const ratio = convertMs / copyMs;
  console.log(`cyclic spec: ${options.schemas} $defs, ${size} bytes of JSON → ${output} bytes converted`);
  console.log(
    `deep copy (baseline) ${copyMs.toFixed(3)} ms; conversion ${convertMs.toFixed(3)} ms; ratio ${ratio.toFixed(1)}×`,
  );
  record(
    'schema-conversion',
    `cyclic spec of ${options.schemas} $defs: conversion ms ÷ deep-copy ms`,
    +ratio.toFixed(1),
    'reported',
    true,
  );
}

main();
