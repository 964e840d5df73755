// Module hooks for a worker thread started from the TypeScript sources (the test runner runs them
// without building): `./x.js` imported by a `.ts` file resolves to `./x.ts` when only that exists,
// and `.ts` files load as their TypeScript transpilation (types dropped, nothing checked). The built
// program (dist/) never uses this: its workers load the compiled `.js` next to their pool
// (src/platform/worker-pool.ts). Transpiled files are kept by the digest of their source under
// node_modules/.cache, so TypeScript (a second to load) is loaded only when a source changed.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const CACHE = new URL('../node_modules/.cache/kiln-worker-sources/', import.meta.url);

export async function resolve(specifier, context, nextResolve) {
  if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const source = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
    if (existsSync(fileURLToPath(source))) return { url: source.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, 'utf8');
  const kept = new URL(`${createHash('sha256').update(path).update('\0').update(source).digest('hex')}.mjs`, CACHE);
  if (existsSync(fileURLToPath(kept))) return { format: 'module', source: await readFile(kept, 'utf8'), shortCircuit: true };
  const { default: ts } = await import('typescript');
  const output = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  }).outputText;
  await mkdir(CACHE, { recursive: true });
  // Written whole under a temporary name first: another worker may read it at the same time.
  const partial = new URL(`${kept.href}.${process.pid}.${Math.random().toString(36).slice(2)}`);
  await writeFile(partial, output);
  await rename(partial, kept);
  return { format: 'module', source: output, shortCircuit: true };
}
