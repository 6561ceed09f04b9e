import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Timeouts only catch hangs: a loaded 2-core CI machine runs a heavy test ten times slower than an idle one.
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: 300_000, hookTimeout: 300_000 },
      },
      {
        plugins: [vue()],
        test: { name: 'component', include: ['test/component/**/*.test.ts'], environment: 'happy-dom', testTimeout: 600_000, hookTimeout: 300_000 },
      },
      {
        // The browser tests drive the built app (`npm test` builds first) in Debian Chromium.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 400_000, hookTimeout: 300_000, fileParallelism: false },
      },
    ],
  },
})
