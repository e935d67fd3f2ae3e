// Bundles the preload (and the contract it imports) into one CommonJS file: dist/preload/index.cjs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  logLevel: 'warn',
  build: {
    outDir: 'dist/preload',
    // tsc also writes dist/preload/contract.js (main imports the contract's constants).
    emptyOutDir: false,
    target: 'chrome140',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: fileURLToPath(new URL('./index.ts', import.meta.url)),
      formats: ['cjs'],
      fileName: () => 'index.cjs',
    },
    rollupOptions: { external: ['electron'] },
  },
});
