import { defineConfig } from 'vitest/config'

/**
 * Test files that replace modules with `vi.mock`: they need a fresh module registry, so they run in
 * their own processes. Every other file shares its worker process's modules with the files run there
 * before it (`isolate: false`): importing the workspace's sources again for each of ~280 files was
 * more than half of the suite's wall time. A file added here is one whose mocks or module-level state
 * another file must not see.
 */
const ISOLATED = [
  'packages/core/src/library/library-close.test.ts',
  'adapters/sqlite/src/sqlite-adapter.test.ts',
]

const TESTS = [
  'packages/**/*.test.ts',
  'adapters/**/*.test.ts',
  'plugins/**/*.test.ts',
  'benchmarks/**/*.test.ts',
  'test/**/*.test.ts',
  'scripts/*.test.ts',
]
const NEVER = ['**/node_modules/**', '**/dist/**']

// Tests run from TypeScript sources: workspace packages export a `source` condition pointing at src/.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'development|production'] } },
  test: {
    // eventsource-parser publishes TypeScript under a `source` export condition, which the
    // conditions above select; inlined (with its importer, the MCP SDK's HTTP client, used by the
    // MCP tests), Vite compiles it instead of handing Node a .ts file.
    server: {
      deps: { inline: [/sdk\/dist\/esm\/client\/streamableHttp\.js$/, 'eventsource-parser'] },
    },
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Projects inherit the options above (`extends: true`) and concatenate lists, so the file globs
    // live only here. Timed reliability tests run alone afterwards (vitest.serial.config.ts).
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: TESTS,
          exclude: [...NEVER, '**/*.serial.test.ts', ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: NEVER } },
    ],
  },
})
