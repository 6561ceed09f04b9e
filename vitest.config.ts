import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', testTimeout: 30_000, hookTimeout: 30_000 },
      },
      {
        plugins: [vue()],
        test: { name: 'component', include: ['test/component/**/*.test.ts'], environment: 'happy-dom', testTimeout: 30_000 },
      },
      {
        // The browser tests drive the built app (`npm test` builds first) in Debian Chromium.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 120_000, fileParallelism: false },
      },
    ],
  },
})
