import { defineConfig } from 'vite';

// The embeddable <weft-wallet> script (docs/widget.md): a library build of web/widget/weft-wallet.ts as one classic
// IIFE file, dist/web/weft-wallet.js, so a third-party page includes it with a plain <script src>. It runs after the
// app build (which empties dist/web), so it must not empty the folder.
export default defineConfig({
  root: '.',
  publicDir: false,
  build: {
    outDir: 'dist/web',
    emptyOutDir: false,
    lib: { entry: 'web/widget/weft-wallet.ts', name: 'WeftWallet', formats: ['iife'], fileName: () => 'weft-wallet.js' },
  },
});
