// ESLint flat config: typescript-eslint's recommended rules everywhere, React hooks rules for the web
// app, and the import boundaries of ARCHITECTURE.md (issue 11) checked by eslint-plugin-boundaries.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The server's domain slices in their import order (ADR 0009): each imports only the shared layer and those before it. */
const SLICES = ['events', 'mail', 'purchases', 'staff', 'check-in'];
/** src/server's top-level files in the shared layer (ADR 0009); the others are entry points and whole-app tests. */
const SHARED_TOP_FILES = ['config', 'errors', 'http-timeouts', 'persistent-secret', 'wallet-config'].map((name) => `src/server/${name}.ts`);
/** Every element type of src/server: its own files and cli/ (`server`), the shared layer, test support, the slices. */
const SERVER = ['server', 'server-shared', 'server-test', ...SLICES];

/** What src/core, src/server and src/web may import of each other (ARCHITECTURE.md). */
const LAYERS = [
  {
    from: { element: { type: 'core' } },
    disallow: { to: { element: { types: [...SERVER, 'web', 'feature'] } } },
    message: 'src/core is shared by server and web: it imports nothing from src/server or src/web'
  },
  {
    from: { element: { type: 'core' } },
    disallow: { to: { module: { origin: 'core' } } },
    message: 'src/core runs in the browser too: no Node built-in (node:) modules'
  },
  {
    from: { element: { types: ['web', 'feature'] } },
    disallow: { to: { element: { types: SERVER } } },
    message: 'src/web never imports src/server: share through src/core'
  },
  {
    from: { element: { types: SERVER } },
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
];

/** The server's one-way slice order: production code only (a test may set up data through any slice). */
const SLICE_ORDER = [
  {
    from: [{ element: { type: 'server-shared' } }, { file: { categories: 'server-shared' } }],
    disallow: { to: { element: { types: SLICES } } },
    message: 'The server\'s shared layer (platform, db, limits, audit, and the top-level config, errors and helpers) imports no slice: take what it needs as a parameter (ADR 0009)'
  },
  ...SLICES.map((slice, index) => ({
    from: { element: { type: slice } },
    disallow: { to: { element: { types: SLICES.slice(index + 1) } } },
    message: `src/server/${slice} imports only the shared layer${index > 0 ? ` and ${SLICES.slice(0, index).join(', ')}` : ''} (ADR 0009: shared -> ${SLICES.join(' -> ')}); move what both need down`
  }))
];

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
      // The first pattern a file's folder matches gives its type. The server's slices import one way
      // (ADR 0009): shared -> events -> mail -> purchases -> staff -> check-in. src/server's own files
      // and cli/ are `server`; of them, the entry points (app.ts, main.ts, admin-socket.ts, cli/) wire the slices.
      'boundaries/elements': [
        { type: 'core', pattern: 'src/core', partialMatch: false },
        { type: 'server-test', pattern: 'src/server/test-support', partialMatch: false },
        { type: 'server-shared', pattern: ['src/server/platform', 'src/server/db', 'src/server/limits', 'src/server/audit'], partialMatch: false },
        ...SLICES.map((slice) => ({ type: slice, pattern: `src/server/${slice}`, partialMatch: false })),
        { type: 'server', pattern: 'src/server', partialMatch: false },
        { type: 'feature', pattern: 'src/web/features/*', partialMatch: false, capture: ['feature'] },
        { type: 'web', pattern: 'src/web', partialMatch: false }
      ],
      // Element patterns match folders: src/server's top-level settings and helpers join the shared layer by file.
      'boundaries/files': [{ category: 'server-shared', pattern: SHARED_TOP_FILES, partialMatch: false }]
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Also judge imports of packages and node: modules (core must not use node:).
          checkAllOrigins: true,
          policies: [...LAYERS, ...SLICE_ORDER]
        }
      ]
    }
  },
  {
    files: ['src/server/**/*.test.ts'],
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', checkAllOrigins: true, policies: LAYERS }] }
  },
  {
    // One way for the web to talk to the server (issue 20): each feature's calls, query keys and hooks
    // live in its one `<feature>-api.ts`, so no component calls the API itself.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/**/*-api.ts', 'src/web/**/*.test.{ts,tsx}'],
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
    // place per slice. The exceptions are where an ADR says why: the database itself (db/), the COPY
    // export (ADR 0006), the batched limit counter (ADR 0008), and tests.
    files: ['src/server/**/*.ts'],
    ignores: [
      'src/server/**/*-queries.ts',
      'src/server/db/**',
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
