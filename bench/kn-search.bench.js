/**
 * kn_search latency on a synthetic 100,000-instance network (embedded adapter, keyword search).
 * Run: npm run build && node bench/kn-search.bench.js [instances]
 */
const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { EmbeddedKnowledgeNetwork } = require('../dist/knowledge-network/embedded/embedded-knowledge-network');
const { KnSearchService } = require('../dist/knsearch/knsearch.service');

const COUNT = Number(process.argv[2] ?? 100000);
const CITIES = ['北京', '上海', '广州', '深圳', '杭州', '成都'];
const TERMS = ['糖尿病', '高血压', '冠心病', '哮喘', '偏头痛', '胃炎', '肺炎', '关节炎', '贫血', '失眠', '过敏', '骨折'];
const FILLER = ['需要定期复查', '长期服药', '饮食控制', '症状缓解', '建议住院观察', '门诊随访', '家族病史', '无明显不适'];
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (list) => list[Math.floor(random() * list.length)];

function writeNetwork(root) {
  const dir = path.join(root, 'bench');
  for (const sub of ['object_types', 'relation_types', 'data']) mkdirSync(path.join(dir, sub), { recursive: true });
  writeFileSync(path.join(dir, 'network.bkn'), '---\ntype: knowledge_network\nid: bench\nname: 压测网络\n---\n\n# 压测网络\n');
  const header = '| Name | Display Name | Type | Description | Mapped Field |\n|---|---|---|---|---|\n';
  writeFileSync(path.join(dir, 'object_types', 'patient.bkn'), `---\ntype: object_type\nid: patient\nname: 患者\n---\n\n## ObjectType: 患者\n\n就诊患者与病史。\n\n### Data Properties\n\n${header}| id | 编号 | string | 主键 | id |\n| name | 姓名 | string | 姓名 | name |\n| city | 城市 | string | 城市 | city |\n| age | 年龄 | integer | 年龄 | age |\n| notes | 病史 | text | 病史备注 | notes |\n\n### Keys\n\nPrimary Keys: id\nDisplay Key: name\n`);
  writeFileSync(path.join(dir, 'object_types', 'disease.bkn'), `---\ntype: object_type\nid: disease\nname: 疾病\n---\n\n## ObjectType: 疾病\n\n疾病目录。\n\n### Data Properties\n\n${header}| disease | 疾病 | string | 名称 | disease |\n| description | 描述 | text | 描述 | description |\n\n### Keys\n\nPrimary Keys: disease\n`);
  writeFileSync(path.join(dir, 'relation_types', 'has.bkn'), '---\ntype: relation_type\nid: has\nname: 患病\n---\n\n## RelationType: 患病\n\n### Endpoint\n\n| Source | Target | Type |\n|---|---|---|\n| patient | disease | direct |\n\n### Mapping Rules\n\n| Source Property | Target Property |\n|---|---|\n| city | disease |\n');
  writeFileSync(path.join(dir, 'data', 'disease.csv'), 'disease,description\n' + TERMS.map((t) => `${t},${t}的诊断与治疗`).join('\n') + '\n');
  const rows = ['id,name,city,age,notes'];
  for (let i = 0; i < COUNT; i++) {
    const notes = `${pick(TERMS)}${pick(FILLER)}，${pick(TERMS)}${pick(FILLER)}。${pick(FILLER)}`;
    rows.push(`P${i},患者${i},${pick(CITIES)},${18 + Math.floor(random() * 70)},${notes}`);
  }
  writeFileSync(path.join(dir, 'data', 'patient.csv'), rows.join('\n') + '\n');
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label, runs, action) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await action(i);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms`);
}

async function main() {
  const root = mkdtempSync(path.join(tmpdir(), 'kn-bench-'));
  try {
    writeNetwork(root);
    const kn = new EmbeddedKnowledgeNetwork({ backend: 'embedded', dir: root, strict: true, embedding: undefined });
    const started = Date.now();
    await kn.onModuleInit();
    console.log(`loaded ${COUNT} instances in ${Date.now() - started} ms`);
    const service = new KnSearchService(kn);
    const queries = ['糖尿病患者', '高血压 长期服药', '哮喘 门诊随访', '骨折', '失眠 建议住院观察', '心脏不好怎么办'];
    await measure('kn_search', 200, (i) => service.knSearch({ kn_id: 'bench', query: queries[i % queries.length] }));
    await measure('kn_search only_schema', 200, (i) => service.knSearch({ kn_id: 'bench', query: queries[i % queries.length], only_schema: true }));
    await measure('query_object_instance and/range', 200, (i) =>
      service.queryObjectInstance({ kn_id: 'bench', ot_id: 'patient', limit: 20, condition: { operation: 'and', sub_conditions: [{ operation: '==', field: 'city', value: CITIES[i % CITIES.length] }, { operation: 'range', field: 'age', value: [30, 40] }] } }),
    );
    kn.onModuleDestroy();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
