import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'benchmarks/runs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Examples are plain Node ESM, run as written (README "Use it as a library").
    files: ['examples/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    // Built-ins are plugins like any other (DESIGN.md section 1a, STYLE item 3): what they import from
    // core must be what @engram/core exports to every third party.
    files: ['packages/core/src/builtins/**/*.ts'],
    // Their tests may wire an engine around them.
    ignores: ['packages/core/src/builtins/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\.\\./)+(?!\\.\\./)(?!(contracts|model|analysis|vectors)/|(errors|ids)\\.js$)',
              message:
                "builtins/ may import only core's public plugin surface: contracts/, model/, analysis/, vectors/ (cosine), errors.js, ids.js (what @engram/core exports), and other built-ins. Give the plugin a reader on SearchContext instead of reaching into the engine.",
            },
            {
              group: ['@engram/*'],
              message:
                'builtins/ are part of @engram/core: import the contract files, not a package.',
            },
          ],
        },
      ],
    },
  },
  {
    // Plugins depend on core's public exports only, like a researcher's package would.
    files: ['plugins/*/src/**/*.ts', 'test/support/probe-plugin/**/*.ts'],
    ignores: [
      'plugins/*/src/**/*.test.ts',
      'plugins/*/src/**/test-support/**',
      'plugins/*/src/**/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@engram/*', '!@engram/core', '@engram/core/*'],
              message:
                'A plugin imports only @engram/core (and @engram/core/testing in tests), never deep paths or other Engram packages.',
            },
            {
              regex: '(^|/)packages/',
              message: 'A plugin imports @engram/core, never core files by path.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'plugins/*/src/**/*.test.ts',
      'plugins/*/src/**/test-support/**',
      'plugins/*/src/**/testing/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@engram/*', '!@engram/core', '@engram/core/*', '!@engram/core/testing'],
              message:
                'Plugin tests import only @engram/core and @engram/core/testing, never deep paths or other Engram packages.',
            },
            {
              regex: '(^|/)packages/',
              message: 'A plugin imports @engram/core, never core files by path.',
            },
          ],
        },
      ],
    },
  },
)
