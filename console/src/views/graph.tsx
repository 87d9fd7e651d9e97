import type { Core } from 'cytoscape';
import { useEffect, useRef, useState } from 'preact/hooks';
import { claimCytoscapeStylesheet } from '../cytoscape-csp';
import { t } from '../i18n';
import { expandOneHop, GraphEdge, GraphNode } from '../subgraph';
import { instanceHref } from './network';

const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

function colourOf(objectTypeId: string): string {
  let hash = 0;
  for (const char of objectTypeId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length];
}

const sameIdentity = (a: Record<string, unknown>, b: Record<string, unknown>): boolean =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([key, value]) => String(value) === String(b[key]));

interface GraphState {
  nodes: number;
  edges: number;
  busy: boolean;
  error?: string;
  selected?: GraphNode;
}

/**
 * An instance's subgraph drawn with cytoscape.js: nodes coloured by object type, edges labelled by
 * relation type. It opens one hop deep; double-clicking a node (or "+1 hop" for every node not yet
 * expanded) adds the next hop. Pan and zoom are cytoscape's own.
 */
export function SubgraphView({ knId, start }: { knId: string; start: GraphNode }) {
  const container = useRef<HTMLDivElement>(null);
  const graph = useRef<{ cy: Core; expanded: Set<string>; known: Map<string, GraphNode> }>();
  const [state, setState] = useState<GraphState>({ nodes: 0, edges: 0, busy: true });

  const add = (nodes: GraphNode[], edges: GraphEdge[]) => {
    const { cy, known } = graph.current!;
    for (const node of nodes) {
      if (known.has(node.id)) continue;
      known.set(node.id, node);
      cy.add({
        group: 'nodes',
        data: { id: node.id, label: node.label, type: node.objectTypeName, colour: colourOf(node.objectTypeId) },
      });
    }
    for (const edge of edges) {
      if (cy.getElementById(edge.id).nonempty() || !known.has(edge.source) || !known.has(edge.target)) continue;
      cy.add({ group: 'edges', data: { id: edge.id, source: edge.source, target: edge.target, label: edge.label } });
    }
  };

  /** Runs one growth step, then lays the graph out again and counts what is drawn. */
  const grow = async (step: (current: NonNullable<typeof graph.current>) => Promise<void>) => {
    const current = graph.current!;
    setState((previous) => ({ ...previous, busy: true, error: undefined }));
    try {
      await step(current);
      current.cy.layout({ name: 'cose', animate: false, randomize: false, nodeDimensionsIncludeLabels: true }).run();
      current.cy.fit(undefined, 24);
    } catch (error) {
      setState((previous) => ({ ...previous, error: String((error as Error).message) }));
    } finally {
      const { cy } = current;
      setState((previous) => ({ ...previous, busy: false, nodes: cy.nodes().length, edges: cy.edges().length }));
    }
  };

  const expand = (ids: string[]) =>
    grow(async (current) => {
      for (const id of ids) {
        if (current.expanded.has(id)) continue;
        current.expanded.add(id);
        const found = await expandOneHop(knId, current.known.get(id)!);
        add(found.nodes, found.edges);
      }
    });

  // The start's node id is the service's: it comes back with its first hop.
  const open = () =>
    grow(async (current) => {
      const found = await expandOneHop(knId, start);
      const self = found.nodes.find(
        (node) => node.objectTypeId === start.objectTypeId && sameIdentity(node.identity, start.identity),
      ) ?? { ...start, id: `${start.objectTypeId}:${JSON.stringify(start.identity)}` };
      current.expanded.add(self.id);
      add([self, ...found.nodes], found.edges);
      current.cy.getElementById(self.id).addClass('start');
    });

  useEffect(() => {
    let cy: Core | undefined;
    let alive = true;
    void import('cytoscape').then(({ default: cytoscape }) => {
      if (!alive || !container.current) return;
      claimCytoscapeStylesheet();
      cy = cytoscape({
        container: container.current,
        style: [
          {
            selector: 'node',
            style: {
              'background-color': 'data(colour)',
              label: 'data(label)',
              'font-size': 10,
              'text-valign': 'bottom',
              'text-margin-y': 4,
              width: 22,
              height: 22,
            },
          },
          { selector: 'node.start', style: { width: 32, height: 32, 'border-width': 3, 'border-color': '#fbbf24' } },
          { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#111827' } },
          {
            selector: 'edge',
            style: {
              width: 1.5,
              'line-color': '#9ca3af',
              'target-arrow-color': '#9ca3af',
              'target-arrow-shape': 'triangle',
              'curve-style': 'bezier',
              label: 'data(label)',
              'font-size': 8,
              color: '#6b7280',
            },
          },
        ],
      });
      graph.current = { cy, expanded: new Set(), known: new Map() };
      cy.on('dbltap', 'node', (event) => void expand([event.target.id() as string]));
      cy.on('tap', 'node', (event) =>
        setState((previous) => ({ ...previous, selected: graph.current?.known.get(event.target.id() as string) })),
      );
      void open();
    });
    return () => {
      alive = false;
      cy?.destroy();
    };
  }, [knId, start.objectTypeId, JSON.stringify(start.identity)]);

  const expandAll = () => {
    const current = graph.current;
    if (current) void expand([...current.known.keys()].filter((id) => !current.expanded.has(id)));
  };

  return (
    <div class="card">
      <div class="row">
        <h3>{t('subgraph')}</h3>
        <span class="spacer" />
        <span
          id="graph-counts"
          data-nodes={state.nodes}
          data-edges={state.edges}
          data-busy={String(state.busy)}
          class="muted"
        >
          {state.nodes} {t('nodes')} · {state.edges} {t('edges')}
        </span>
        <button type="button" id="expand-all" disabled={state.busy} onClick={expandAll}>
          +1 hop
        </button>
      </div>
      <p class="muted">{t('expandHint')}</p>
      {state.error && <p class="error">{state.error}</p>}
      <div class="graph" ref={container} />
      {state.selected && (
        <p>
          <span class="tag">{state.selected.objectTypeName}</span>{' '}
          <a
            href={instanceHref(knId, {
              object_type_id: state.selected.objectTypeId,
              unique_identities: state.selected.identity,
            })}
          >
            {state.selected.label}
          </a>
        </p>
      )}
    </div>
  );
}
