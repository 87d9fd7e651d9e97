import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { parse, parseAllDocuments } from 'yaml';
import { startTestApp, TestApp } from './support/app';

const root = path.join(__dirname, '..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

interface Probe {
  httpGet?: { path: string };
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
}
interface Manifest {
  kind: string;
  spec: Record<string, unknown>;
}

(hasKubectl ? describe : describe.skip)('k8s manifests (kubectl kustomize)', () => {
  let manifests: Manifest[];
  let app: TestApp;

  beforeAll(async () => {
    const rendered = execFileSync('kubectl', ['kustomize', path.join(root, 'k8s')], { encoding: 'utf8' });
    manifests = parseAllDocuments(rendered).map((document) => document.toJSON() as Manifest);
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('renders every resource the deployment needs', () => {
    const kinds = manifests.map((manifest) => manifest.kind).sort();
    expect(kinds).toEqual(
      [
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Ingress',
        'PodDisruptionBudget',
        'PrometheusRule',
        'Secret',
        'Service',
        'ServiceMonitor',
      ].sort(),
    );
  });

  it('points every probe at a route that answers 200', async () => {
    const deployment = manifests.find((manifest) => manifest.kind === 'Deployment')!;
    const container = (deployment.spec as { template: { spec: { containers: Record<string, Probe>[] } } }).template.spec
      .containers[0];
    const probes = ['startupProbe', 'livenessProbe', 'readinessProbe'].map((name) => container[name]?.httpGet?.path);
    expect(probes).toEqual(['/health/live', '/health/live', '/health/ready']);
    for (const probePath of probes) await request(app.url).get(probePath!).expect(200);
  });

  it('exposes the public prefix, the chat door and the MCP metadata through the ingress, nothing else', () => {
    const ingress = manifests.find((manifest) => manifest.kind === 'Ingress')!;
    const rules = ingress.spec.rules as { http: { paths: { path: string }[] } }[];
    const paths = rules.flatMap((rule) => rule.http.paths.map((entry) => entry.path));
    // test/security.e2e-spec.ts checks these against the router: every Bearer route in, every private one out.
    expect(paths).toEqual([
      '/api/agent-retrieval/v1',
      '/api/chat/completions',
      '/v1/chat/completions',
      '/v1/models',
      '/v1/tools',
      '/.well-known/oauth-protected-resource',
    ]);
  });
});

/**
 * A busy pod must pass its probes and a hung one must not (README "Deployment → Probes"): under 100
 * connections of cold kn_search /health/live answered within 2.0 s on 2 cores (bench/kn-search.js).
 */
describe('probe tolerances (k8s/deployment.yaml and the Dockerfile HEALTHCHECK)', () => {
  const BUSY_P99_SECONDS = 2;
  const deployment = parse(readFileSync(path.join(root, 'k8s', 'deployment.yaml'), 'utf8')) as {
    spec: { template: { spec: { terminationGracePeriodSeconds: number; containers: Record<string, Probe>[] } } };
  };
  const container = deployment.spec.template.spec.containers[0];

  it('liveness waits well past the busy p99 and restarts only after a minute without any answer', () => {
    const liveness = container.livenessProbe;
    expect(liveness.timeoutSeconds).toBeGreaterThanOrEqual(2 * BUSY_P99_SECONDS);
    expect(liveness.periodSeconds * liveness.failureThreshold).toBeGreaterThanOrEqual(60);
    expect(liveness.periodSeconds * liveness.failureThreshold).toBeLessThanOrEqual(120);
  });

  it('readiness tolerates the busy p99, startup covers indexing large networks before the port opens', () => {
    expect(container.readinessProbe.timeoutSeconds).toBeGreaterThanOrEqual(2 * BUSY_P99_SECONDS);
    const startup = container.startupProbe;
    expect(startup.periodSeconds * startup.failureThreshold).toBeGreaterThanOrEqual(300);
  });

  it('the image healthcheck matches: 5 s per check, about a minute of misses, a long start period', () => {
    const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const flags = Object.fromEntries(
      [...dockerfile.matchAll(/--([a-z-]+)=(\d+)s?/g)].map((match) => [match[1], Number(match[2])]),
    );
    expect(flags.timeout).toBeGreaterThanOrEqual(2 * BUSY_P99_SECONDS);
    expect(flags.interval * flags.retries).toBeGreaterThanOrEqual(60);
    expect(flags['start-period']).toBeGreaterThanOrEqual(300);
  });
});
