/** A Grafana dashboard's panels laid out on its 24-column grid as static HTML: what Grafana would show, minus data. */
interface Panel {
  type: string;
  title: string;
  description?: string;
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; legendFormat?: string }[];
}

const escape = (text: string): string =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

function panelHtml(panel: Panel): string {
  const { x, y, w, h } = panel.gridPos;
  const area = `grid-column: ${x + 1} / span ${w}; grid-row: ${y + 1} / span ${h};`;
  if (panel.type === 'row') return `<h2 class="row" style="${area}">${escape(panel.title)}</h2>`;
  const queries = (panel.targets ?? [])
    .map((target) => `<li><code>${escape(target.expr)}</code><span>${escape(target.legendFormat ?? '')}</span></li>`)
    .join('');
  return (
    `<section class="panel" style="${area}"><header>${escape(panel.title)}<small>${panel.type}</small></header>` +
    `<p>${escape(panel.description ?? '')}</p><ul>${queries}</ul></section>`
  );
}

export function dashboardHtml(dashboard: { title: string; description?: string; panels: Panel[] }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(dashboard.title)}</title><style>
body { background: #111217; color: #ccccdc; font: 13px/1.4 Inter, Helvetica, Arial, sans-serif; margin: 16px; }
h1 { font-size: 20px; margin: 0 0 4px; } .lead { color: #8e8e9e; margin: 0 0 12px; }
.grid { display: grid; grid-template-columns: repeat(24, 1fr); grid-auto-rows: 22px; gap: 6px; }
.row { font-size: 15px; margin: 0; padding-top: 4px; border-bottom: 1px solid #2c2d33; }
.panel { background: #181b1f; border: 1px solid #2c2d33; border-radius: 4px; padding: 8px; overflow: hidden; }
.panel header { font-weight: 600; display: flex; justify-content: space-between; }
.panel small { color: #6e9fff; font-weight: 400; } .panel p { color: #8e8e9e; margin: 4px 0; }
.panel ul { margin: 0; padding-left: 16px; } .panel li { margin-bottom: 4px; }
.panel code { color: #73bf69; font-size: 11px; word-break: break-all; } .panel li span { color: #8e8e9e; margin-left: 6px; }
</style></head><body><h1>${escape(dashboard.title)}</h1><p class="lead">${escape(dashboard.description ?? '')}</p>
<div class="grid">${dashboard.panels.map(panelHtml).join('')}</div></body></html>`;
}
