import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix' | 'ImplementationSpecific';
}

interface IngressManifest {
  kind?: string;
  spec?: { rules?: { http?: { paths?: IngressPath[] } }[] };
}

/** Every path of every Ingress in a manifest file (k8s/ingress.yaml by default). */
export function ingressPaths(file = path.join(__dirname, '..', '..', 'k8s', 'ingress.yaml')): IngressPath[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8')).map(
    (document) => document.toJSON() as IngressManifest,
  );
  return documents
    .filter((manifest) => manifest?.kind === 'Ingress')
    .flatMap((manifest) => manifest.spec?.rules ?? [])
    .flatMap((rule) => rule.http?.paths ?? []);
}

const segments = (url: string): string[] =>
  url
    .split('?')[0]
    .split('/')
    .filter((segment) => segment !== '');

/**
 * Whether a request path reaches the backend through an ingress path, as Kubernetes defines it: Exact is
 * string equality, Prefix matches whole path elements (`/v1/tools` matches `/v1/tools/x`, not `/v1/toolsx`).
 * ImplementationSpecific is read as the loosest reading, a plain string prefix.
 */
export function ingressServes(entry: IngressPath, requestPath: string): boolean {
  const target = requestPath.split('?')[0];
  if (entry.pathType === 'Exact') return target === entry.path;
  if (entry.pathType === 'ImplementationSpecific') return target.startsWith(entry.path);
  const prefix = segments(entry.path);
  const parts = segments(target);
  return prefix.every((segment, i) => parts[i] === segment);
}

/** The loosest reading any controller could give a path (a plain string prefix): private routes must not match even this. */
export function ingressCouldServe(entry: IngressPath, requestPath: string): boolean {
  return requestPath.startsWith(entry.path.replace(/\/+$/, ''));
}
