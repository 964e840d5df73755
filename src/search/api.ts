// What other features may use of search: nothing yet. Export here what another feature needs;
// everything else in this folder is internal (docs/architecture.md, "Boundaries").
export {};
