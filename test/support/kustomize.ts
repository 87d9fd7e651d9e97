import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * A renderer for the subset of kustomize that k8s/ and k8s-overlays/ use, so CI checks the manifests
 * without kubectl: Debian bookworm's kubectl (1.20, kustomize v2) rejects `labels:`, and no npm package
 * renders kustomizations. Anything outside the subset throws instead of rendering something else, and
 * test/k8s.e2e-spec.ts compares the output with `kubectl kustomize` wherever a modern kubectl is installed.
 *
 * Subset: `resources` (files and kustomization folders), `namespace`, `labels` (`pairs`, `includeSelectors`),
 * `images` (`name`, `newName`, `newTag`) and `patches` given by `path` (strategic merge, target = kind + name).
 */
export type Manifest = Record<string, unknown> & { kind: string; metadata: { name: string } & Record<string, unknown> };

type Tree = Record<string, unknown>;

interface Kustomization {
  namespace?: string;
  resources?: string[];
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { path: string }[];
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'labels', 'images', 'patches']);

export function renderKustomization(directory: string): Manifest[] {
  const kustomization = readKustomization(directory);
  let manifests = (kustomization.resources ?? []).flatMap((resource) => loadResource(path.join(directory, resource)));
  for (const patch of kustomization.patches ?? []) manifests = applyPatch(manifests, path.join(directory, patch.path));
  if (kustomization.namespace) setNamespace(manifests, kustomization.namespace);
  for (const entry of kustomization.labels ?? []) addLabels(manifests, entry.pairs, entry.includeSelectors === true);
  for (const image of kustomization.images ?? []) replaceImage(manifests, image);
  return manifests;
}

function readKustomization(directory: string): Kustomization {
  const document = parse(readFileSync(path.join(directory, 'kustomization.yaml'), 'utf8')) as Tree;
  const unsupported = Object.keys(document).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0)
    throw new Error(`${directory}: kustomization fields not rendered here: ${unsupported.join(', ')}`);
  for (const patch of (document.patches ?? []) as Tree[]) {
    const extra = Object.keys(patch).filter((key) => key !== 'path');
    if (extra.length > 0)
      throw new Error(`${directory}: only patches given by path are rendered here (${extra.join(', ')})`);
  }
  return document as Kustomization;
}

function loadResource(location: string): Manifest[] {
  if (statSync(location).isDirectory()) {
    if (!existsSync(path.join(location, 'kustomization.yaml')))
      throw new Error(`${location} has no kustomization.yaml`);
    return renderKustomization(location);
  }
  return parseAllDocuments(readFileSync(location, 'utf8'))
    .map((document) => document.toJSON() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

function applyPatch(manifests: Manifest[], patchFile: string): Manifest[] {
  const patch = parse(readFileSync(patchFile, 'utf8')) as Manifest;
  const index = manifests.findIndex((each) => each.kind === patch.kind && each.metadata.name === patch.metadata.name);
  if (index < 0) throw new Error(`${patchFile}: no ${patch.kind} ${patch.metadata.name} to patch`);
  const patched = [...manifests];
  patched[index] = strategicMerge(manifests[index], patch) as Manifest;
  return patched;
}

/** List items merged by key, as Kubernetes' strategic merge does for these fields; other lists are replaced. */
function mergeKey(field: string, items: unknown[]): string | undefined {
  if (['containers', 'initContainers', 'volumes', 'env'].includes(field)) return 'name';
  if (field === 'volumeMounts') return 'mountPath';
  if (field === 'ports') return (items[0] as Tree | undefined)?.containerPort !== undefined ? 'containerPort' : 'port';
  return undefined;
}

function strategicMerge(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch) && Array.isArray(target)) {
    const key = mergeKey(field, [...target, ...patch]);
    if (!key) return patch;
    // As kustomize orders them: the patch's items (merged with their targets) first, then the untouched rest.
    const patched = patch.map((update) => {
      const item = target.find((each) => (each as Tree)[key] === (update as Tree)[key]);
      return item === undefined ? withoutNulls(update) : strategicMerge(item, update);
    });
    const untouched = target.filter((item) => !patch.some((each) => (each as Tree)[key] === (item as Tree)[key]));
    return [...patched, ...untouched];
  }
  if (!isTree(patch) || !isTree(target)) return patch;
  const merged: Tree = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = name in target ? strategicMerge(target[name], value, name) : withoutNulls(value);
  }
  return merged;
}

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isTree(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, each]) => each !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Kinds without a namespace of their own that the repo might list; everything else is namespaced. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
]);

function setNamespace(manifests: Manifest[], namespace: string): void {
  for (const manifest of manifests) if (!CLUSTER_SCOPED.has(manifest.kind)) manifest.metadata.namespace = namespace;
}

/**
 * kustomize's label field specs for the kinds here: metadata everywhere; with includeSelectors, the selectors
 * and pod templates that must keep matching (`create`: whether a missing map is created).
 */
const SELECTOR_FIELDS: Record<string, { path: string[]; create: boolean }[]> = {
  Service: [{ path: ['spec', 'selector'], create: true }],
  Deployment: [
    { path: ['spec', 'selector', 'matchLabels'], create: true },
    { path: ['spec', 'template', 'metadata', 'labels'], create: true },
    {
      path: ['spec', 'template', 'spec', 'topologySpreadConstraints', '*', 'labelSelector', 'matchLabels'],
      create: false,
    },
  ],
  PodDisruptionBudget: [{ path: ['spec', 'selector', 'matchLabels'], create: false }],
  NetworkPolicy: [
    { path: ['spec', 'podSelector', 'matchLabels'], create: false },
    { path: ['spec', 'ingress', '*', 'from', '*', 'podSelector', 'matchLabels'], create: false },
  ],
};

function addLabels(manifests: Manifest[], pairs: Record<string, string>, includeSelectors: boolean): void {
  for (const manifest of manifests) {
    mergeInto(manifest, ['metadata', 'labels'], pairs, true);
    if (!includeSelectors) continue;
    for (const field of SELECTOR_FIELDS[manifest.kind] ?? []) mergeInto(manifest, field.path, pairs, field.create);
  }
}

function mergeInto(node: unknown, fieldPath: string[], pairs: Record<string, string>, create: boolean): void {
  if (!isTree(node) && !Array.isArray(node)) return;
  const [head, ...rest] = fieldPath;
  if (head === '*') {
    if (Array.isArray(node)) for (const item of node) mergeInto(item, rest, pairs, create);
    return;
  }
  if (!isTree(node)) return;
  if (rest.length === 0) {
    if (isTree(node[head])) node[head] = { ...(node[head] as Tree), ...pairs };
    else if (create && node[head] === undefined) node[head] = { ...pairs };
    return;
  }
  if (node[head] === undefined && create) node[head] = {};
  mergeInto(node[head], rest, pairs, create);
}

function replaceImage(manifests: Manifest[], image: { name: string; newName?: string; newTag?: string }): void {
  for (const manifest of manifests) {
    const podSpec = ((manifest.spec as Tree | undefined)?.template as Tree | undefined)?.spec as Tree | undefined;
    for (const container of [
      ...((podSpec?.containers ?? []) as Tree[]),
      ...((podSpec?.initContainers ?? []) as Tree[]),
    ]) {
      const current = String(container.image);
      const [name, tag] = current.split(':');
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}${(image.newTag ?? tag) ? `:${image.newTag ?? tag}` : ''}`;
    }
  }
}
