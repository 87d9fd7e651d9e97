import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin } from './support/llm-standin';

interface AlertRule {
  alert: string;
  expr: string;
  labels: { severity: string; priority: string };
}

interface Selector {
  metric: string;
  labels: string[];
}

const rules = (
  parse(readFileSync(path.join(__dirname, '..', 'k8s', 'prometheusrule.yaml'), 'utf8')) as {
    spec: { groups: { rules: AlertRule[] }[] };
  }
).spec.groups.flatMap((group) => group.rules);

interface DashboardPanel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(path.join(__dirname, '..', 'k8s', 'grafana-dashboard.json'), 'utf8')) as {
  panels: DashboardPanel[];
};
const dashboardQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);
/** Labels Prometheus adds when it scrapes (the dashboard's $job variable), never on /metrics itself. */
const SCRAPE_LABELS = new Set(['job', 'instance']);

// PromQL words that are neither functions (followed by "(") nor metric names.
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset']);

/** The metric selectors of a PromQL expression: names with the label names they match on. */
function selectors(expr: string): Selector[] {
  const bare = expr
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/(?<![\w:])\d+(\.\d+)?(e[-+]?\d+)?/gi, ' ');
  const found: Selector[] = [];
  for (const match of bare.matchAll(/([a-zA-Z_:][\w:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, braces, call] = match;
    if (call || KEYWORDS.has(name)) continue;
    const labels = [...(braces ?? '').matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)\s*"/g)].map((label) => label[1]);
    found.push({ metric: name, labels });
  }
  return found;
}

/** Every series name /metrics declares (histograms and summaries with their sub-series), and the label names seen on each. */
function exported(scrape: string): { names: Set<string>; labelsOf: Map<string, Set<string>> } {
  const names = new Set<string>();
  const labelsOf = new Map<string, Set<string>>();
  for (const line of scrape.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const [, name, kind] = type;
      names.add(name);
      if (kind === 'histogram') ['_bucket', '_count', '_sum'].forEach((suffix) => names.add(name + suffix));
      if (kind === 'summary') ['_count', '_sum'].forEach((suffix) => names.add(name + suffix));
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? /.exec(line);
    if (!sample) continue;
    const seen = labelsOf.get(sample[1]) ?? new Set<string>();
    for (const label of (sample[2] ?? '').matchAll(/([a-zA-Z_]\w*)="/g)) seen.add(label[1]);
    labelsOf.set(sample[1], seen);
  }
  return { names, labelsOf };
}

describe('k8s/prometheusrule.yaml', () => {
  it('reads the selectors of an expression, not its functions, grouping labels, ranges or numbers', () => {
    expect(
      selectors(
        'histogram_quantile(0.99, sum by (le) (rate(a_seconds_bucket{x=~"1|2", y="z"}[5m]))) / clamp_min(b_total, 1e-9) > 3',
      ),
    ).toEqual([
      { metric: 'a_seconds_bucket', labels: ['x', 'y'] },
      { metric: 'b_total', labels: [] },
    ]);
  });

  it("maps seed 000 §9.3's priorities onto severities: P1 → critical, P2 → warning", () => {
    const priorities = Object.fromEntries(rules.map((rule) => [rule.alert, rule.labels.priority]));
    expect(priorities).toMatchObject({
      AgentRetrievalMcpProxyErrorRate: 'P1',
      AgentRetrievalMcpProxyLatencyP99: 'P2',
      AgentRetrievalSchemaConversionFailures: 'P2',
    });
    const severityOf: Record<string, string> = { P1: 'critical', P2: 'warning' };
    for (const rule of rules)
      expect([rule.alert, rule.labels.severity]).toEqual([rule.alert, severityOf[rule.labels.priority]]);
  });

  it('alerts on search overload, model endpoint failures and CKB cooldown storms', () => {
    const metricsOf = (alert: string) => selectors(rules.find((rule) => rule.alert === alert)?.expr ?? '');
    expect(metricsOf('AgentRetrievalSearchOverloaded').map((selector) => selector.metric)).toContain(
      'agent_retrieval_search_rejected_total',
    );
    expect(metricsOf('AgentRetrievalModelEndpointFailures')).toContainEqual({
      metric: 'agent_retrieval_upstream_calls_total',
      labels: ['upstream', 'outcome'],
    });
    expect(metricsOf('AgentRetrievalCkbCooldownStorm').map((selector) => selector.metric)).toEqual([
      'agent_retrieval_ckb_cooldowns_total',
    ]);
  });

  describe('against the metrics a started service exports', () => {
    const model = new LlmStandin();
    let app: TestApp;
    let scrape: ReturnType<typeof exported>;

    beforeAll(async () => {
      app = await startTestApp({
        LLM_BASE_URL: await model.start(),
        LLM_MODEL: 'standin-model',
        // The dashboard's Process panel reads the default Node.js metrics.
        METRICS_PROCESS: 'true',
      });
      // Traffic, so labelled series have samples whose label names can be checked.
      await request(app.url)
        .post('/v1/chat/completions')
        .send({ model: 'standin-model', messages: [{ role: 'user', content: 'hi' }] })
        .expect(200);
      await request(app.url)
        .post('/api/agent-retrieval/v1/kn/kn_search')
        .send({ kn_id: 'clinic', query: '糖尿病' })
        .expect(200);
      const response = await request(app.url).get('/metrics').expect(200);
      scrape = exported(response.text);
    });

    afterAll(async () => {
      await app?.close();
      await model.stop();
    });

    it('every alert names only metrics /metrics declares', () => {
      const unknown = rules.flatMap((rule) =>
        selectors(rule.expr)
          .filter((selector) => !scrape.names.has(selector.metric))
          .map((selector) => `${rule.alert}: ${selector.metric}`),
      );
      expect(selectors(rules.map((rule) => rule.expr).join('\n')).length).toBeGreaterThanOrEqual(rules.length);
      expect(unknown).toEqual([]);
    });

    it('every label an alert matches on is a label of that metric, where the scrape has samples of it', () => {
      const checked = rules.flatMap((rule) =>
        selectors(rule.expr)
          .filter((selector) => scrape.labelsOf.has(selector.metric))
          .flatMap((selector) => selector.labels.map((label) => ({ rule: rule.alert, selector, label }))),
      );
      const wrong = checked
        .filter(({ selector, label }) => !scrape.labelsOf.get(selector.metric)!.has(label))
        .map(({ rule, selector, label }) => `${rule}: ${selector.metric}{${label}}`);
      expect(wrong).toEqual([]);
      // The model endpoint alert's series was produced by the chat call above, so its labels were checked.
      expect(checked.map(({ rule }) => rule)).toContain('AgentRetrievalModelEndpointFailures');
    });

    it('every dashboard panel queries only metrics /metrics declares, with labels they carry', () => {
      expect(dashboardQueries.length).toBeGreaterThan(20);
      const unknown = dashboardQueries.flatMap(({ panel, expr }) =>
        selectors(expr)
          .filter((selector) => !scrape.names.has(selector.metric))
          .map((selector) => `${panel}: ${selector.metric}`),
      );
      expect(unknown).toEqual([]);
      const wrong = dashboardQueries.flatMap(({ panel, expr }) =>
        selectors(expr)
          .filter((selector) => scrape.labelsOf.has(selector.metric))
          .flatMap((selector) =>
            selector.labels
              .filter((label) => !SCRAPE_LABELS.has(label) && !scrape.labelsOf.get(selector.metric)!.has(label))
              .map((label) => `${panel}: ${selector.metric}{${label}}`),
          ),
      );
      expect(wrong).toEqual([]);
    });
  });
});
