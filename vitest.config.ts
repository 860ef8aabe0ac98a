import { defineConfig } from 'vitest/config'

// Tests run from TypeScript sources: workspace packages export a `source` condition pointing at src/.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'development|production'] } },
  test: {
    include: [
      'packages/**/*.test.ts',
      'adapters/**/*.test.ts',
      'plugins/**/*.test.ts',
      'benchmarks/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // Timed reliability tests run alone afterwards (vitest.serial.config.ts).
    exclude: ['**/node_modules/**', '**/dist/**', '**/*.serial.test.ts'],
    // eventsource-parser publishes TypeScript under a `source` export condition, which the
    // conditions above select; inlined (with its importer, the MCP SDK's HTTP client, used by the
    // MCP tests), Vite compiles it instead of handing Node a .ts file.
    server: {
      deps: { inline: [/sdk\/dist\/esm\/client\/streamableHttp\.js$/, 'eventsource-parser'] },
    },
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
