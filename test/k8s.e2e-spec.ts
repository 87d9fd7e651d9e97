import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import { startTestApp, TestApp } from './support/app';

const root = path.join(__dirname, '..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

interface Probe {
  httpGet?: { path: string };
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

  it('exposes only the public prefix through the ingress', () => {
    const ingress = manifests.find((manifest) => manifest.kind === 'Ingress')!;
    const rules = ingress.spec.rules as { http: { paths: { path: string }[] } }[];
    const paths = rules.flatMap((rule) => rule.http.paths.map((entry) => entry.path));
    expect(paths).toEqual(['/api/agent-retrieval/v1']);
  });
});
