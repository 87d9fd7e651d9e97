import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config';
import { startTestApp, TestApp } from './support/app';
import { Manifest, renderKustomization } from './support/kustomize';

const root = path.join(__dirname, '..');
const PRIVATE_ACCESS_LABEL = 'agent-retrieval.kweaver.io/private-access';

/** kubectl with a kustomize that knows `labels:` (≥ 1.21); Debian bookworm's 1.20 does not. */
function modernKubectl(): boolean {
  const version = spawnSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  if (version.status !== 0) return false;
  const minor = Number.parseInt(
    (JSON.parse(version.stdout) as { clientVersion: { minor: string } }).clientVersion.minor,
    10,
  );
  return minor >= 21;
}

interface Probe {
  httpGet?: { path: string; port: string };
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
}
interface Port {
  name: string;
  containerPort?: number;
  port?: number;
  targetPort?: string;
}
interface Container {
  ports: Port[];
  [probe: string]: unknown;
}

const byKind = (manifests: Manifest[], kind: string): Manifest & { spec: Record<string, unknown> } =>
  manifests.find((manifest) => manifest.kind === kind) as Manifest & { spec: Record<string, unknown> };
const containerOf = (manifests: Manifest[]): Container =>
  (byKind(manifests, 'Deployment').spec as { template: { spec: { containers: Container[] } } }).template.spec
    .containers[0];

// Rendered in every run (CI has no kubectl): test/support/kustomize.ts, checked against kubectl below when present.
describe('k8s manifests (kustomize render)', () => {
  const manifests = renderKustomization(path.join(root, 'k8s'));
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ PRIVATE_PORT: '0' });
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
        'NetworkPolicy',
        'PodDisruptionBudget',
        'PrometheusRule',
        'Secret',
        'Service',
        'ServiceMonitor',
      ].sort(),
    );
  });

  it('points every probe at the public port and a route that answers 200 there', async () => {
    const container = containerOf(manifests);
    const probes = ['startupProbe', 'livenessProbe', 'readinessProbe'].map(
      (name) => (container[name] as Probe).httpGet!,
    );
    expect(probes.map((probe) => probe.path)).toEqual(['/health/live', '/health/live', '/health/ready']);
    expect(probes.map((probe) => probe.port)).toEqual(['http', 'http', 'http']);
    for (const probe of probes) await request(app.url).get(probe.path).expect(200);
  });

  it('runs two listeners: container ports http = PORT and private = PRIVATE_PORT, both on the Service', () => {
    const config = byKind(manifests, 'ConfigMap') as unknown as { data: Record<string, string> };
    const ports = containerOf(manifests).ports;
    expect(ports.map((port) => [port.name, port.containerPort])).toEqual([
      ['http', Number(config.data.PORT)],
      ['private', Number(config.data.PRIVATE_PORT)],
    ]);
    const service = byKind(manifests, 'Service').spec.ports as Port[];
    expect(service.map((port) => [port.name, port.port, port.targetPort])).toEqual([
      ['http', Number(config.data.PORT), 'http'],
      ['private', Number(config.data.PRIVATE_PORT), 'private'],
    ]);
    // The configuration the pod starts with passes the start-up check (AUTH_MODE=introspect on 0.0.0.0).
    const env = { ...config.data, INTROSPECT_URL: 'http://hydra-admin:4445/admin/oauth2/introspect' };
    expect(loadConfig(env).server.privateListener).toEqual({ port: 30780, host: '0.0.0.0' });
    expect(loadConfig(env).operators.actionProxyBaseUrl).toBe(`http://agent-retrieval:${config.data.PRIVATE_PORT}`);
  });

  it('admits the private port only from namespaces labelled for the platform; the public port stays open', () => {
    const policy = byKind(manifests, 'NetworkPolicy').spec as {
      podSelector: { matchLabels: Record<string, string> };
      policyTypes: string[];
      ingress: { from?: Record<string, unknown>[]; ports: { port: string }[] }[];
    };
    const template = (
      byKind(manifests, 'Deployment').spec as { template: { metadata: { labels: Record<string, string> } } }
    ).template.metadata.labels;
    expect(template).toMatchObject(policy.podSelector.matchLabels);
    expect(policy.policyTypes).toEqual(['Ingress']);
    const rulesFor = (port: string) => policy.ingress.filter((rule) => rule.ports.some((each) => each.port === port));
    expect(rulesFor('http')).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
    expect(rulesFor('private')).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { [PRIVATE_ACCESS_LABEL]: 'true' } } }],
        ports: [{ port: 'private', protocol: 'TCP' }],
      },
    ]);
    // The label is the operator's to set: the operations guide names it.
    expect(readFileSync(path.join(root, 'docs', 'operations.md'), 'utf8').includes(PRIVATE_ACCESS_LABEL)).toBe(true);
  });

  it('exposes the public prefix, the chat door and the MCP metadata through the ingress, nothing else', () => {
    const ingress = byKind(manifests, 'Ingress');
    const rules = ingress.spec.rules as {
      http: { paths: { path: string; backend: { service: { port: { name: string } } } }[] };
    }[];
    const paths = rules.flatMap((rule) => rule.http.paths);
    // test/security.e2e-spec.ts checks these against the router: every Bearer route in, every private one out.
    expect(paths.map((entry) => entry.path)).toEqual([
      '/api/agent-retrieval/v1',
      '/api/chat/completions',
      '/v1/chat/completions',
      '/v1/models',
      '/v1/tools',
      '/.well-known/oauth-protected-resource',
    ]);
    expect(new Set(paths.map((entry) => entry.backend.service.port.name))).toEqual(new Set(['http']));
  });

  it('embedded-indexes overlay: an init container builds the indexes into a volume the server mounts read-only', () => {
    const overlay = renderKustomization(path.join(root, 'k8s-overlays', 'embedded-indexes'));
    const config = (byKind(overlay, 'ConfigMap') as unknown as { data: Record<string, string> }).data;
    expect(config).toMatchObject({ KN_BACKEND: 'embedded', INDEX_READ_ONLY: 'true', KN_WATCH: 'false' });
    type Mount = { name: string; mountPath: string; readOnly?: boolean };
    type PodContainer = { name: string; image: string; command?: string[]; env?: { name: string; value: string }[] };
    const pod = (byKind(overlay, 'Deployment').spec as { template: { spec: Record<string, unknown> } }).template.spec;
    const [init] = pod.initContainers as (PodContainer & { volumeMounts: Mount[] })[];
    const [server] = pod.containers as (PodContainer & { volumeMounts: Mount[] })[];
    expect(init.image).toBe(server.image);
    expect(init.command).toEqual(['node', 'bin/index.js']);
    expect(init.env).toEqual([{ name: 'INDEX_READ_ONLY', value: 'false' }]);
    const indexMount = (container: { volumeMounts: Mount[] }) =>
      container.volumeMounts.find((mount) => mount.mountPath === config.INDEX_DIR);
    expect(indexMount(init)).toEqual({ name: 'indexes', mountPath: config.INDEX_DIR });
    expect(indexMount(server)).toEqual({ name: 'indexes', mountPath: config.INDEX_DIR, readOnly: true });
    expect((pod.volumes as { name: string }[]).map((volume) => volume.name)).toContain('indexes');
    expect(server.volumeMounts.map((mount) => mount.name)).toEqual(expect.arrayContaining(['tmp', 'workspaces']));
    // Both containers start with a configuration that passes the start-up check.
    expect(() => loadConfig({ ...config, INTROSPECT_URL: 'http://hydra:4445/x' })).not.toThrow();
  });

  it('renders the chat-workspaces overlay on top of the base, both listeners kept', () => {
    const overlay = renderKustomization(path.join(root, 'k8s-overlays', 'chat-workspaces'));
    expect(overlay.map((manifest) => manifest.kind)).toContain('PersistentVolumeClaim');
    expect(containerOf(overlay).ports.map((port) => port.name)).toEqual(['http', 'private']);
  });
});

(modernKubectl() ? describe : describe.skip)('the test renderer agrees with kubectl kustomize', () => {
  const key = (manifest: Manifest) => `${manifest.kind}/${manifest.metadata.name}`;
  const sorted = (manifests: Manifest[]) => [...manifests].sort((a, b) => key(a).localeCompare(key(b)));

  it.each(['k8s', 'k8s-overlays/chat-workspaces', 'k8s-overlays/embedded-indexes'])(
    '%s renders the same resources',
    (folder) => {
      const rendered = execFileSync('kubectl', ['kustomize', path.join(root, folder)], { encoding: 'utf8' });
      const fromKubectl = parseAllDocuments(rendered).map((document) => document.toJSON() as Manifest);
      expect(sorted(renderKustomization(path.join(root, folder)))).toEqual(sorted(fromKubectl));
    },
  );
});

/**
 * A busy pod must pass its probes and a hung one must not (docs/operations.md "Probes"): under 100
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
