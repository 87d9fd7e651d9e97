// Invariants of one BKN network folder with CSV data, checked without the service's parser.
const { existsSync, readdirSync } = require('node:fs');
const { basename, join } = require('node:path');
const { readCsv } = require('../../../scripts/lib/csv');
const { readBkn, tableRows, keyLine } = require('./bkn-sections');

const FOLDER_TYPES = { object_types: 'object_type', relation_types: 'relation_type', action_types: 'action_type', concept_groups: 'concept_group' };

function loadDefinitions(dir, problems) {
  const definitions = {};
  for (const [folder, type] of Object.entries(FOLDER_TYPES)) {
    definitions[folder] = new Map();
    const path = join(dir, folder);
    if (!existsSync(path)) continue;
    for (const file of readdirSync(path).filter((name) => name.endsWith('.bkn')).sort()) {
      const bkn = readBkn(join(path, file));
      if (bkn.meta.type !== type) problems.push(`${folder}/${file}: frontmatter type is ${bkn.meta.type}, expected ${type}`);
      if (bkn.meta.id !== basename(file, '.bkn')) problems.push(`${folder}/${file}: id ${bkn.meta.id} differs from the file name`);
      definitions[folder].set(bkn.meta.id, bkn);
    }
  }
  return definitions;
}

/** Loads data/<id>.csv for every object type; checks header = Data Properties and unique primary keys. */
function checkObjectTypes(dir, objectTypes, problems) {
  const tables = new Map();
  for (const [id, bkn] of objectTypes) {
    const names = tableRows(bkn.sections['Data Properties']).map((row) => row.Name);
    const keys = (keyLine(bkn.sections.Keys, 'Primary Keys') ?? '').split(',').map((k) => k.trim()).filter(Boolean);
    const display = keyLine(bkn.sections.Keys, 'Display Key');
    if (!keys.length || keys.some((k) => !names.includes(k))) problems.push(`${id}: primary keys [${keys}] are not data properties`);
    if (display && !names.includes(display)) problems.push(`${id}: display key ${display} is not a data property`);
    const path = join(dir, 'data', `${id}.csv`);
    if (!existsSync(path)) {
      problems.push(`${id}: data/${id}.csv is missing`);
      continue;
    }
    const csv = readCsv(path);
    if (csv.header.join(',') !== names.join(',')) problems.push(`${id}: CSV header [${csv.header}] differs from Data Properties [${names}]`);
    if (csv.widths.some((width) => width !== csv.header.length)) problems.push(`${id}: some rows do not have ${csv.header.length} fields`);
    const identities = new Set(csv.rows.map((row) => keys.map((k) => row[k]).join('\u0000')));
    if (identities.size !== csv.rows.length) problems.push(`${id}: ${csv.rows.length - identities.size} duplicate primary keys`);
    if (csv.rows.some((row) => keys.some((k) => row[k] === ''))) problems.push(`${id}: empty primary key values`);
    tables.set(id, { rows: csv.rows, names, keys });
  }
  return tables;
}

function valuesOf(tables, objectType, property) {
  return new Set((tables.get(objectType)?.rows ?? []).map((row) => row[property]));
}

/** value → how many rows carry it, so one-to-many edges are counted per pair. */
function multiplicity(tables, objectType, property) {
  const counts = new Map();
  for (const row of tables.get(objectType)?.rows ?? []) counts.set(row[property], (counts.get(row[property]) ?? 0) + 1);
  return counts;
}

function checkDirect(id, endpoint, bkn, tables, problems) {
  const [rule] = tableRows(bkn.sections['Mapping Rules']);
  if (!rule) return problems.push(`${id}: direct relation without Mapping Rules`);
  const targets = multiplicity(tables, endpoint.Target, rule['Target Property']);
  let edges = 0;
  let empty = 0;
  for (const row of tables.get(endpoint.Source)?.rows ?? []) {
    const value = row[rule['Source Property']];
    if (value === undefined) return problems.push(`${id}: ${endpoint.Source} has no property ${rule['Source Property']}`);
    if (value === '') empty += 1;
    else if (targets.has(value)) edges += targets.get(value);
    else problems.push(`${id}: ${endpoint.Source}.${rule['Source Property']}=${value} matches no ${endpoint.Target}`);
  }
  return { edges, empty };
}

function checkDataView(dir, id, endpoint, bkn, tables, problems) {
  const [view] = tableRows(bkn.sections['Mapping View']);
  const [source] = tableRows(bkn.sections['Source Mapping']);
  const [target] = tableRows(bkn.sections['Target Mapping']);
  if (!view || !source || !target) return problems.push(`${id}: data_view relation needs Mapping View, Source and Target Mapping`);
  const path = join(dir, 'data', `${view.ID}.csv`);
  if (!existsSync(path)) return problems.push(`${id}: view data/${view.ID}.csv is missing`);
  const sources = valuesOf(tables, endpoint.Source, source['Source Property']);
  const targets = valuesOf(tables, endpoint.Target, target['Target Property']);
  const { rows } = readCsv(path);
  const broken = rows.filter((row) => !sources.has(row[source['View Property']]) || !targets.has(row[target['View Property']]));
  if (broken.length) problems.push(`${id}: ${broken.length} of ${rows.length} view rows do not join both sides`);
  return { edges: rows.length - broken.length, empty: 0 };
}

function checkRelationTypes(dir, relationTypes, tables, problems) {
  const edges = {};
  for (const [id, bkn] of relationTypes) {
    const [endpoint] = tableRows(bkn.sections.Endpoint);
    if (!endpoint || !tables.has(endpoint.Source) || !tables.has(endpoint.Target)) {
      problems.push(`${id}: endpoint ${endpoint?.Source} → ${endpoint?.Target} names an unknown object type`);
      continue;
    }
    const result = endpoint.Type === 'data_view' ? checkDataView(dir, id, endpoint, bkn, tables, problems) : checkDirect(id, endpoint, bkn, tables, problems);
    if (typeof result === 'object') edges[id] = { ...result, type: endpoint.Type, source: endpoint.Source, target: endpoint.Target };
  }
  return edges;
}

function checkBindings(owner, parameters, properties, problems) {
  for (const p of parameters) {
    if (!['property', 'input', 'const'].includes(p.Source)) problems.push(`${owner}: parameter ${p.Parameter} has source ${p.Source}`);
    if (p.Source === 'property' && !properties.includes(p.Binding)) problems.push(`${owner}: parameter ${p.Parameter} binds unknown property ${p.Binding}`);
  }
}

function checkActionsAndGroups(definitions, tables, problems) {
  for (const [id, bkn] of definitions.object_types) {
    checkBindings(`${id} logic properties`, tableRows(bkn.sections['Logic Properties']), tables.get(id)?.names ?? [], problems);
  }
  for (const [id, bkn] of definitions.action_types) {
    const bound = tableRows(bkn.sections['Bound Object'])[0]?.['Bound Object'];
    if (!tables.has(bound)) problems.push(`${id}: bound object ${bound} is unknown`);
    const [tool] = tableRows(bkn.sections['Tool Configuration']);
    const complete = tool && (tool.Type === 'mcp' ? tool['MCP ID'] && tool['Tool Name'] : tool.Type === 'tool' && tool['Toolbox ID'] && tool['Tool ID']);
    if (!complete) problems.push(`${id}: Tool Configuration must be tool (Toolbox ID, Tool ID) or mcp (MCP ID, Tool Name)`);
    checkBindings(id, tableRows(bkn.sections['Parameter Binding']), tables.get(bound)?.names ?? [], problems);
  }
  for (const [id, bkn] of definitions.concept_groups) {
    for (const row of tableRows(bkn.sections['Object Types'])) if (!tables.has(row.ID)) problems.push(`${id}: concept group names unknown object type ${row.ID}`);
  }
}

/** find_skills: the skills object type has skill_id and name, and every object_type_id a skill names exists. */
function checkSkills(tables, problems) {
  const skills = tables.get('skills');
  if (!skills) return;
  for (const name of ['skill_id', 'name']) if (!skills.names.includes(name)) problems.push(`skills: data property ${name} is missing`);
  for (const row of skills.rows) {
    for (const id of (row.object_type_id ?? '').split(/[\s,]+/).filter(Boolean)) {
      if (!tables.has(id)) problems.push(`skills: ${row.skill_id} names unknown object type ${id}`);
    }
  }
}

/** Runs every check on one network folder; returns counts and the list of problems found. */
function checkNetwork(dir) {
  const problems = [];
  const root = join(dir, 'network.bkn');
  if (!existsSync(root)) return { problems: ['network.bkn: root file does not exist'] };
  const network = readBkn(root);
  if (network.meta.type !== 'knowledge_network' || !network.meta.id || !network.meta.name) problems.push('network.bkn: needs type knowledge_network, id and name');
  const definitions = loadDefinitions(dir, problems);
  const tables = checkObjectTypes(dir, definitions.object_types, problems);
  const edges = checkRelationTypes(dir, definitions.relation_types, tables, problems);
  checkActionsAndGroups(definitions, tables, problems);
  checkSkills(tables, problems);
  const instances = Object.fromEntries([...tables].map(([id, table]) => [id, table.rows.length]));
  return { id: network.meta.id, instances, edges, definitions, tables, problems };
}

module.exports = { checkNetwork };
