// ESLint flat config: typescript-eslint's recommended rules everywhere, React hooks rules for the web
// app, and the import boundaries of ARCHITECTURE.md (issue 11) checked by eslint-plugin-boundaries.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Built, generated or run output; `.test-build-*` is the admin CLI test's throwaway build.
  globalIgnores(['dist/', 'node_modules/', 'test-results/', 'playwright-report/', 'blob-report/', 'bench/results/', 'drizzle/', 'data/', '.test-build-*/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A `let` read by a closure before its one assignment (main.ts: the admin socket opens before the database) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Destructuring a key away is how a copy without it is made (`{ amountCents: _dropped, ...older }`).
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }]
    }
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat['recommended-latest'],
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules
    }
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/include': ['src/**/*'],
      // Lazy routes use import(); count them as imports too.
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      'boundaries/elements': [
        { type: 'core', pattern: 'src/core', partialMatch: false },
        { type: 'server', pattern: 'src/server', partialMatch: false },
        { type: 'feature', pattern: 'src/web/features/*', partialMatch: false, capture: ['feature'] },
        { type: 'web', pattern: 'src/web', partialMatch: false }
      ]
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Also judge imports of packages and node: modules (core must not use node:).
          checkAllOrigins: true,
          policies: [
            {
              from: { element: { type: 'core' } },
              disallow: { to: { element: { types: ['server', 'web', 'feature'] } } },
              message: 'src/core is shared by server and web: it imports nothing from src/server or src/web'
            },
            {
              from: { element: { type: 'core' } },
              disallow: { to: { module: { origin: 'core' } } },
              message: 'src/core runs in the browser too: no Node built-in (node:) modules'
            },
            {
              from: { element: { types: ['web', 'feature'] } },
              disallow: { to: { element: { type: 'server' } } },
              message: 'src/web never imports src/server: share through src/core'
            },
            {
              from: { element: { type: 'server' } },
              disallow: { to: { element: { types: ['web', 'feature'] } } },
              message: 'src/server never imports src/web: share through src/core'
            },
            {
              from: { element: { type: 'feature' } },
              disallow: {
                to: { element: { type: 'feature', captured: { feature: '!{{ from.element.captured.feature }}' } } }
              },
              message: 'features under src/web/features do not import each other: move the shared part to src/web/lib or src/web/components'
            }
          ]
        }
      ]
    }
  },
  {
    // One way for the web to talk to the server (issue 20): each feature's calls, query keys and hooks
    // live in its one `<feature>-api.ts`, so no component calls the API itself.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/**/*-api.ts', 'src/web/lib/purchase-client.ts', 'src/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api-client.ts', './api-client.ts'],
              message: "Only a feature's <feature>-api.ts calls the API client: put the call, its query key and hook there."
            }
          ]
        }
      ]
    }
  },
  {
    // Only query modules write SQL (ADR 0009): a statement is found, reviewed and its plan tested in one
    // place per slice. The exceptions are where an ADR says why: the database itself (db/), the group
    // commit (ADR 0002), the COPY export (ADR 0006), the batched limit counter (ADR 0008), and tests.
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/**/*-queries.ts',
      'src/server/db/**',
      'src/server/purchases/purchase-writer.ts',
      'src/server/staff/purchase-export.ts',
      'src/server/limits/shared-counter.ts',
      'src/server/**/*.test.ts',
      'src/server/test-support/**'
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*'],
              message:
                'Only query modules (*-queries.ts) write SQL (ADR 0009): put the statement in this slice\'s query module and call it from here.'
            }
          ]
        }
      ]
    }
  }
);
