// Kiln's boundaries (docs/architecture.md, "Boundaries"), checked by `npm run lint`:
// - no circular dependency, between files or between folders;
// - platform (src/platform/**) knows no feature;
// - a feature uses another feature only through that feature's public surface, src/<feature>/api.ts;
// - the composition root (the files directly in src/) reaches features through index.ts or api.ts.
// Type-only imports count: a type shared both ways is a cycle too (tsPreCompilationDeps).
/* global module */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Circular dependency: move what both sides need into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      scope: 'folder',
      comment: 'Two folders depend on each other (two features, or two parts of platform): one of them must not know the other (a hook registered at setup, or the shared part moved down).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-knows-no-feature',
      severity: 'error',
      comment: 'src/platform/** is used by features and never uses one: register a hook (deps.auth) instead.',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: ['^src/platform/', '^src/config\\.ts$'] },
    },
    {
      name: 'feature-public-surface',
      severity: 'error',
      comment: "Another feature's internals: import what it offers from its api.ts (add it there if it should be public).",
      from: { path: '^src/([^/]+)/', pathNot: '^src/platform/' },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/platform/', '^src/[^/]+/api\\.ts$'] },
    },
    {
      name: 'features-not-into-composition-root',
      severity: 'error',
      comment: 'The files directly in src/ (app, bootstrap, features, main, admin-commands) put Kiln together; features and platform do not import them.',
      from: { path: '^src/[^/]+/' },
      to: { path: '^src/(app|bootstrap|features|main|admin-commands)\\.ts$' },
    },
    {
      name: 'composition-root-through-surfaces',
      severity: 'error',
      comment: "The composition root reaches a feature through its index.ts (the Feature) or api.ts.",
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/(?!platform/)[^/]+/', pathNot: '^src/[^/]+/(index|api)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
  },
};
