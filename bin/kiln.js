#!/usr/bin/env node
// `npx kiln …` (or `node bin/kiln.js …`) works on a fresh clone: the first call builds dist/, saying so.
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

if (!buildIfNeeded()) process.exit(1);
await import('../dist/src/main.js');
