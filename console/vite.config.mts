import { defineConfig } from 'vite';

// The console is served by the service at /console; its hashed assets under /console/assets.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: '../dist/web-console',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // No inline script or style anywhere: the page's CSP allows only this origin's files.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      output: {
        manualChunks: (id) => (id.includes('node_modules/cytoscape') ? 'cytoscape' : undefined),
      },
    },
  },
});
