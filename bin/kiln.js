#!/usr/bin/env node
// `node bin/kiln.js …` runs the `kiln` command; `npx kiln …` and `bin/kiln …` come here through bin/kiln, which
// picks Node's flags first. It works on a fresh clone: the first call builds dist/, saying so.
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

if (!buildIfNeeded()) process.exit(1);
await import('../dist/src/main.js');
