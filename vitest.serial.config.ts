import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

/**
 * The serial pass of `npm test`: tests that time requests against a real server (the latency
 * bounds) run after the main pass, one file at a time, so other test files do not share the cores.
 * Spread, not `mergeConfig`: that would append these globs to the main pass's (and keep its projects).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/**/*.serial.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    fileParallelism: false,
  },
})
