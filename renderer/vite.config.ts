import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset URLs: Electron loads the bundle from file:// and the web bridge serves it under any path.
  base: './',
  plugins: [svelte()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Electron 45's Chromium; the web bridge is used from a current browser.
    target: 'chrome138',
    chunkSizeWarningLimit: 600,
  },
});
