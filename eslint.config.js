// Flat config: typescript-eslint's recommended rules for the TypeScript sources, tests and bench;
// plain recommended rules for the few JavaScript files. Generated output is ignored.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
      // One way to open a transaction of the query builder: inTransaction (nested calls reuse it, and
      // its trx also runs the raw statements of the helpers shared with group-commit works).
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[arguments.length=0] > MemberExpression.callee[property.name='transaction']", message: 'Open a transaction with inTransaction (src/platform/db/README.md).' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly' },
    },
  },
);
