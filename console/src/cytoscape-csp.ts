/**
 * cytoscape.js adds an inline `<style>` (`position: relative` for its container) unless an element with
 * its stylesheet id already exists; the console's CSP refuses inline styles. The id is claimed here and
 * the rule lives in styles.css (`.graph`). The e2e spec's "no console errors" check fails if an upgrade
 * changes what this relies on.
 */
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet';

export function claimCytoscapeStylesheet(): void {
  if (document.getElementById(CYTOSCAPE_STYLESHEET_ID)) return;
  const marker = document.createElement('meta');
  marker.id = CYTOSCAPE_STYLESHEET_ID;
  document.head.append(marker);
}
