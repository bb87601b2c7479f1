// One linter, type-aware: floating promises and misused async are the bugs that hurt a streaming CLI most.
import tseslint from 'typescript-eslint';

// The core's folders from the floor up. A folder imports only itself and the folders before it, so no import
// loop between folders can form; docs/architecture.md says what each one owns. (test/architecture checks that
// the core imports no front end and that front ends use the core's public entries only.)
const CORE_FLOORS = [
  'text',
  'types',
  'errors',
  'fs',
  'logging',
  'transcript',
  'prompt',
  'tools',
  'config',
  'memory',
  'sessions',
  'commands',
  'providers',
  'mcp',
  'engine',
  'host',
];
const noImportsFromAbove = CORE_FLOORS.slice(0, -1).map((folder, floor) => ({
  files: [`core/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `(^|/)(${CORE_FLOORS.slice(floor + 1).join('|')})/`,
            message: `core/${folder} may not import from a floor above it (CORE_FLOORS in eslint.config.js): move what both sides need down to a floor both can reach.`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['*.js', '*.mjs', 'scripts/*.mjs', 'bench/*.mjs', '.ci/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'os', property: 'homedir', message: 'Only core/config/paths.ts knows the home directory.' },
      ],
    },
  },
  ...noImportsFromAbove,
  {
    files: ['core/**/*.ts', 'cli/**/*.ts', 'electron/**/*.ts'],
    rules: {
      // Node's ES module wrappers of these read every export, and some exports load more of Node: node:http's
      // loads all of undici (~40 ms). core/node-builtins.ts takes them as CommonJS modules.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http', 'node:util', 'util'].map((name) => ({
            name,
            allowTypeImports: true,
            message:
              'Take it from core/node-builtins.ts (nodeHttp, nodeUtil): importing it loads undici or more.',
          })),
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests and benches poke at untyped JSON from fakes and child processes; strict any-checks there cost more than they catch.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
