import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

// Top-level main/ preload/ renderer/ instead of electron-vite's default src/: every entry is explicit.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rolldownOptions: {
        input: {
          index: resolve('main/index.ts'),
          serve: resolve('main/serve.ts'),
          'job-worker': resolve('main/job-kinds/worker.ts'),
          'env-server-worker': resolve('main/env-server/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // Bundled CommonJS so the renderer can stay sandboxed (sandboxed preloads cannot import ESM or node_modules).
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    build: {
      outDir: 'out/renderer',
      rolldownOptions: { input: { index: resolve('renderer/index.html') } },
    },
    plugins: [vue()],
  },
})
