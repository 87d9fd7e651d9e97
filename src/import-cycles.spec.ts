import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from './project-root';

const srcDir = path.join(projectRoot(), 'src');

/** Imports that load a module at run time: `import type` and `export type` vanish in the build. */
const RUNTIME_IMPORT = /^(?:import|export)\s+(?!type\b)[^'";]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm;

function resolveImport(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  if (existsSync(`${target}.ts`)) return `${target}.ts`;
  if (existsSync(path.join(target, 'index.ts'))) return path.join(target, 'index.ts');
  return undefined;
}

function sourceGraph(): Map<string, string[]> {
  const files = (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(srcDir, file));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const imports = [...text.matchAll(RUNTIME_IMPORT)]
      .map((match) => resolveImport(file, match[1]))
      .filter((target): target is string => target !== undefined);
    graph.set(file, imports);
  }
  return graph;
}

/** Every cycle of the graph, each as the files along it. */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        found.push([...stack.slice(stack.indexOf(next)), next].map((each) => path.relative(srcDir, each)).join(' → '));
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('module imports', () => {
  it('form no cycle: a module never needs itself to load (issue 29: network-catalog ↔ mcp-endpoint.factory)', () => {
    const graph = sourceGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(cycles(graph)).toEqual([]);
  });

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['/src/a.ts', ['/src/b.ts']],
      ['/src/b.ts', ['/src/a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
  });
});
