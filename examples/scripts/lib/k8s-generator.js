// Builds every row of the Kubernetes operations network (k8s_ops) from a seeded PRNG.
const NAMESPACES = [
  ['payments', 'team-payments', 'production', 'Card authorisation, refunds and the payment ledger'],
  ['checkout', 'team-checkout', 'production', 'Cart, pricing and order placement for the web shop'],
  ['catalog', 'team-catalog', 'production', 'Product catalogue, inventory and image services'],
  ['search', 'team-search', 'production', 'Full-text product search and recommendation APIs'],
  ['identity', 'team-identity', 'production', 'Login, OAuth2 token issuing and user profiles'],
  ['monitoring', 'team-sre', 'production', 'Prometheus, Alertmanager and Grafana for the whole cluster'],
  ['ingress-nginx', 'team-sre', 'production', 'Edge ingress controllers terminating TLS for public traffic'],
  ['data-pipeline', 'team-data', 'staging', 'Batch ETL workers and Kafka consumers feeding the warehouse'],
];
/** [namespace, deployment, image, replicas, exposed by a Service?] */
const WORKLOADS = [
  ['payments', 'payment-api', 'registry.local/payments/payment-api:2.14.1', 6, true], ['payments', 'refund-worker', 'registry.local/payments/refund-worker:1.9.0', 3, false],
  ['payments', 'ledger-service', 'registry.local/payments/ledger:3.2.4', 4, true], ['payments', 'fraud-scorer', 'registry.local/payments/fraud-scorer:0.18.2', 5, true],
  ['payments', 'payment-gateway-adapter', 'registry.local/payments/gateway-adapter:1.4.7', 3, true],
  ['checkout', 'cart-service', 'registry.local/checkout/cart:5.0.3', 6, true], ['checkout', 'pricing-engine', 'registry.local/checkout/pricing:2.7.0', 4, true],
  ['checkout', 'order-service', 'registry.local/checkout/order:4.11.2', 6, true], ['checkout', 'coupon-service', 'registry.local/checkout/coupon:1.3.5', 2, true],
  ['checkout', 'checkout-web', 'registry.local/checkout/web:8.21.0', 8, true],
  ['catalog', 'product-service', 'registry.local/catalog/product:6.2.1', 6, true], ['catalog', 'inventory-service', 'registry.local/catalog/inventory:3.8.0', 4, true],
  ['catalog', 'image-resizer', 'registry.local/catalog/image-resizer:2.0.9', 4, true], ['catalog', 'catalog-importer', 'registry.local/catalog/importer:1.1.4', 2, false],
  ['catalog', 'price-sync', 'registry.local/catalog/price-sync:0.9.3', 2, false],
  ['search', 'search-api', 'registry.local/search/search-api:3.5.0', 6, true], ['search', 'indexer', 'registry.local/search/indexer:3.5.0', 3, false],
  ['search', 'recommendation-api', 'registry.local/search/reco:1.12.0', 4, true], ['search', 'query-suggest', 'registry.local/search/suggest:0.7.1', 3, true],
  ['search', 'opensearch-proxy', 'registry.local/search/os-proxy:1.0.6', 2, true],
  ['identity', 'auth-server', 'registry.local/identity/auth-server:4.3.2', 6, true], ['identity', 'user-profile', 'registry.local/identity/user-profile:2.9.0', 4, true],
  ['identity', 'session-store-proxy', 'registry.local/identity/session-proxy:1.2.0', 3, true], ['identity', 'mfa-service', 'registry.local/identity/mfa:1.6.3', 2, true],
  ['identity', 'token-introspector', 'registry.local/identity/introspector:2.0.1', 3, true],
  ['monitoring', 'prometheus', 'quay.io/prometheus/prometheus:v2.53.0', 2, true], ['monitoring', 'alertmanager', 'quay.io/prometheus/alertmanager:v0.27.0', 3, true],
  ['monitoring', 'grafana', 'grafana/grafana:11.1.0', 2, true], ['monitoring', 'kube-state-metrics', 'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.12.0', 1, true],
  ['monitoring', 'loki-gateway', 'grafana/loki:3.1.0', 2, true],
  ['ingress-nginx', 'ingress-nginx-controller', 'registry.k8s.io/ingress-nginx/controller:v1.11.1', 6, true], ['ingress-nginx', 'default-backend', 'registry.k8s.io/defaultbackend-amd64:1.5', 1, true],
  ['ingress-nginx', 'external-dns', 'registry.k8s.io/external-dns/external-dns:v0.14.2', 1, false], ['ingress-nginx', 'cert-manager', 'quay.io/jetstack/cert-manager-controller:v1.15.1', 2, false],
  ['ingress-nginx', 'oauth2-proxy', 'quay.io/oauth2-proxy/oauth2-proxy:v7.6.0', 2, true],
  ['data-pipeline', 'kafka-consumer-orders', 'registry.local/data/consumer-orders:0.22.0', 4, false], ['data-pipeline', 'etl-scheduler', 'registry.local/data/etl-scheduler:1.0.3', 1, true],
  ['data-pipeline', 'warehouse-loader', 'registry.local/data/warehouse-loader:2.3.1', 3, false], ['data-pipeline', 'schema-registry', 'confluentinc/cp-schema-registry:7.6.1', 2, true],
  ['data-pipeline', 'clickstream-enricher', 'registry.local/data/clickstream:0.5.8', 3, false],
];
const ZONES = ['cn-east-1a', 'cn-east-1b', 'cn-east-1c'];
const TROUBLE = [
  ['CrashLoopBackOff', 'Back-off restarting failed container: exit code 137 after OOMKilled (memory limit 512Mi)'],
  ['CrashLoopBackOff', 'Back-off restarting failed container: panic: dial tcp 10.96.12.4:5432: connect: connection refused'],
  ['Pending', '0/20 nodes are available: 3 Insufficient cpu, 17 node(s) didn\'t match pod anti-affinity rules'],
  ['Pending', 'Failed to pull image: rpc error: code = Unknown desc = manifest unknown (ImagePullBackOff)'],
  ['Failed', 'Liveness probe failed: HTTP probe failed with statuscode: 503; container will be restarted'],
];
const ALERT_RULES = [
  ['KubePodCrashLooping', 'critical', 'Pod {pod} is crash looping ({restarts} restarts in the last hour)'],
  ['KubePodNotReady', 'warning', 'Pod {pod} has been in a non-ready state for longer than 15 minutes'],
  ['ContainerOOMKilled', 'critical', 'Container in pod {pod} was OOMKilled; consider raising the memory limit'],
  ['HighRequestLatency', 'warning', 'p99 latency of pod {pod} is above 1.5s for 10 minutes'],
  ['CPUThrottlingHigh', 'info', '38% throttling of CPU in pod {pod}'],
  ['HighErrorRate', 'critical', 'HTTP 5xx ratio of pod {pod} is above 5% for 5 minutes'],
];
/** Which rules can fire for a pod in each status (a Pending pod cannot crash-loop). */
const RULES_BY_STATUS = {
  Running: ['HighRequestLatency', 'CPUThrottlingHigh', 'HighErrorRate'],
  CrashLoopBackOff: ['KubePodCrashLooping', 'ContainerOOMKilled'],
  Pending: ['KubePodNotReady'],
  Failed: ['KubePodNotReady', 'KubePodCrashLooping'],
};

const suffix = (random, length) => Array.from({ length }, () => random.pick('bcdfghjklmnpqrstvwxz2456789'.split(''))).join('');
const stamp = (random, fromDay, toDay) => `2025-06-${String(random.int(fromDay, toDay)).padStart(2, '0')}T${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`;

function buildNamespaces() {
  return NAMESPACES.map(([name, team, environment, description]) => ({
    namespace_name: name, team, environment, description, cpu_quota_cores: environment === 'production' ? 64 : 16,
  }));
}

function buildNodes(random) {
  return Array.from({ length: 20 }, (_, i) => {
    const control = i < 3;
    const status = control ? 'Ready' : random.weighted([['Ready', 15], ['NotReady', 1], ['SchedulingDisabled', 1]]);
    return {
      node_name: control ? `cp-${i + 1}` : `worker-${String(i - 2).padStart(2, '0')}`,
      role: control ? 'control-plane' : 'worker',
      zone: ZONES[i % ZONES.length],
      instance_type: control ? 'ecs.g7.xlarge' : random.pick(['ecs.g7.2xlarge', 'ecs.g7.4xlarge', 'ecs.c7.4xlarge']),
      kubelet_version: random.weighted([['v1.30.2', 5], ['v1.29.6', 1]]),
      cpu_cores: control ? 4 : random.pick([8, 16]),
      memory_gi: control ? 16 : random.pick([32, 64]),
      status,
      condition_message: { Ready: 'kubelet is posting ready status', NotReady: 'Kubelet stopped posting node status; PLEG is not healthy', SchedulingDisabled: 'Node cordoned for kernel upgrade' }[status],
    };
  });
}

function buildDeployments(random) {
  return WORKLOADS.map(([namespace, name, image, replicas]) => {
    const degraded = random.chance(0.15);
    const available = degraded ? random.int(0, replicas - 1) : replicas;
    return {
      deployment_id: `${namespace}/${name}`, deployment_name: name, namespace, image, replicas, available_replicas: available,
      strategy: random.weighted([['RollingUpdate', 9], ['Recreate', 1]]),
      status: available === replicas ? 'Available' : available === 0 ? 'Unavailable' : 'Degraded',
      last_rollout_at: stamp(random, 1, 29),
      description: `${name} in namespace ${namespace}; ${replicas} replicas of ${image.split('/').pop()}`,
    };
  });
}

/** One pod per desired replica; a degraded deployment's missing replicas are the unhealthy pods. */
function buildPods(random, deployments, nodes) {
  const workers = nodes.filter((n) => n.role === 'worker' && n.status !== 'SchedulingDisabled');
  return deployments.flatMap((deployment) => {
    const template = suffix(random, 10);
    return Array.from({ length: deployment.replicas }, (_, i) => {
      const healthy = i < deployment.available_replicas;
      const [status, event] = healthy ? ['Running', 'Started container; readiness probe succeeded'] : random.pick(TROUBLE);
      const podName = `${deployment.deployment_name}-${template}-${suffix(random, 5)}`;
      const unscheduled = event.startsWith('0/20 nodes are available');
      return {
        pod_id: `${deployment.namespace}/${podName}`, pod_name: podName, namespace: deployment.namespace,
        deployment_id: deployment.deployment_id,
        node_name: unscheduled ? '' : random.pick(workers).node_name,
        status, restart_count: healthy ? random.weighted([[0, 8], [1, 2], [random.int(2, 6), 1]]) : status === 'Pending' ? 0 : random.int(5, 60),
        pod_ip: unscheduled ? '' : `10.244.${random.int(0, 40)}.${random.int(2, 254)}`,
        cpu_request_m: random.pick([100, 250, 500, 1000]), memory_request_mi: random.pick([128, 256, 512, 1024, 2048]),
        started_at: stamp(random, 1, 29), last_event: event,
      };
    });
  });
}

function buildServices(random, deployments) {
  const exposed = new Set(WORKLOADS.filter((w) => w[4]).map(([ns, name]) => `${ns}/${name}`));
  return deployments.filter((d) => exposed.has(d.deployment_id)).map((d) => ({
    service_id: d.deployment_id, service_name: d.deployment_name, namespace: d.namespace,
    service_type: d.namespace === 'ingress-nginx' && d.deployment_name === 'ingress-nginx-controller' ? 'LoadBalancer' : 'ClusterIP',
    cluster_ip: `10.96.${random.int(0, 255)}.${random.int(1, 254)}`,
    ports: random.pick(['80/TCP,443/TCP', '8080/TCP', '9090/TCP', '8443/TCP,9100/TCP']),
    selector: `app.kubernetes.io/name=${d.deployment_name}`,
    description: `Stable virtual IP in front of the ${d.deployment_name} pods`,
  }));
}

/** service → pod, one row per pod the Service's selector matches (the `service_selects_pod` view). */
function buildServicePodView(services, pods) {
  return services.flatMap((s) => pods.filter((p) => p.deployment_id === s.service_id && p.status === 'Running').map((p) => ({ service_id: s.service_id, pod_id: p.pod_id, endpoint: `${p.pod_ip}:${s.ports.split('/')[0]}` })));
}

/** Alerts fire mostly on unhealthy pods, with some noise on healthy ones. */
function buildAlerts(random, pods) {
  const unhealthy = pods.filter((p) => p.status !== 'Running');
  return Array.from({ length: 60 }, (_, i) => {
    const pod = random.chance(0.6) && unhealthy.length ? random.pick(unhealthy) : random.pick(pods);
    const [rule, severity, template] = random.pick(ALERT_RULES.filter(([name]) => RULES_BY_STATUS[pod.status].includes(name)));
    return {
      alert_id: `ALR-${String(i + 1).padStart(4, '0')}`, alert_name: rule, severity,
      status: random.weighted([['firing', 3], ['resolved', 2]]), pod_id: pod.pod_id, namespace: pod.namespace,
      summary: template.replace('{pod}', pod.pod_name).replace('{restarts}', String(pod.restart_count)),
      started_at: stamp(random, 20, 30),
    };
  });
}

module.exports = { buildNamespaces, buildNodes, buildDeployments, buildPods, buildServices, buildServicePodView, buildAlerts };
