// Flat config: typescript-eslint's recommended rules for the TypeScript sources, tests and bench;
// plain recommended rules for the few JavaScript files. Generated output is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// In flat config a later object that sets a rule for the same files REPLACES its options, so every
// no-restricted-syntax selector lives in one of these lists and each file group names all it needs.

// One way to open a transaction of the query builder: inTransaction (nested calls reuse it, and
// its trx also runs the raw statements of the helpers shared with group-commit works).
const TRANSACTIONS = [
  { selector: "CallExpression[arguments.length=0] > MemberExpression.callee[property.name='transaction']", message: 'Open a transaction with inTransaction (src/platform/db/README.md).' },
];

// Issue 13: every permission decision asks a named ability of src/platform/auth/policies; an
// access-level comparison anywhere else (`level >= ACCESS.MAINTAINER`, `member.access_level < 40`)
// is a policy decision made on the side.
const ACCESS_LEVEL_MESSAGE = 'Access levels are compared only in src/platform/auth/policies: ask an ability (canOnProject, canOnGroup, context.project(ability)).';
const ACCESS_LEVEL_COMPARISONS = ['left', 'right'].flatMap((side) => [
  { selector: `BinaryExpression[operator=/^[<>]=?$/][${side}.type='MemberExpression'][${side}.object.name='ACCESS']`, message: ACCESS_LEVEL_MESSAGE },
  { selector: `BinaryExpression[operator=/^[<>]=?$/][${side}.type='MemberExpression'][${side}.property.name=/^(level|access_level|accessLevel)$/]`, message: ACCESS_LEVEL_MESSAGE },
]);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // Kysely's dynamic builders and JSON payloads are typed `any` on purpose in a few places.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Raw SQL (Kysely's `sql` tag, CompiledQuery.raw, the `q` statements, the drivers) only in the
    // data-access layer and in `*-queries.ts` files; everything else uses the query builder or calls
    // a function of such a file (src/platform/db/README.md).
    files: ['src/**/*.ts'],
    ignores: ['src/platform/db/**', 'src/**/*-queries.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'kysely', importNames: ['sql', 'CompiledQuery'], allowTypeImports: true, message: 'Raw SQL belongs in a *-queries.ts file next to this one (src/platform/db/README.md).' },
            { name: 'better-sqlite3', allowTypeImports: true, message: 'The drivers belong to src/platform/db.' },
            { name: 'pg', allowTypeImports: true, message: 'The drivers belong to src/platform/db.' },
          ],
          patterns: [
            { group: ['**/db/statements.js'], importNames: ['q'], message: 'Raw statements belong in a *-queries.ts file next to this one (src/platform/db/README.md).' },
          ],
        },
      ],
      // Builder transactions only through inTransaction; access levels only in the policies (both lists, above).
      'no-restricted-syntax': ['error', ...TRANSACTIONS, ...ACCESS_LEVEL_COMPARISONS],
    },
  },
  {
    // The data-access layer may open transactions its own way, but compares no access levels either.
    files: ['src/platform/db/**', 'src/**/*-queries.ts'],
    ignores: ['src/platform/auth/policies/**'],
    rules: { 'no-restricted-syntax': ['error', ...ACCESS_LEVEL_COMPARISONS] },
  },
  {
    // The policies are where access levels are compared; transactions as everywhere else.
    files: ['src/platform/auth/policies/**'],
    ignores: ['src/**/*-queries.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TRANSACTIONS] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly' },
    },
  },
);
