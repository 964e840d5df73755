// The boundary rules of `npm run lint` (.dependency-cruiser.cjs), run through dependency-cruiser's API
// as the CLI runs them: on small trees that keep the rules or break exactly one, and on src/ itself.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const REPOSITORY = resolve(import.meta.dirname, '../..');
const CONFIG = join(REPOSITORY, '.dependency-cruiser.cjs');

type Tree = Record<string, string>;

/** Two features (alpha offers makeAlpha, beta uses it), platform, config and the composition root. */
const KEEPS_THE_RULES: Tree = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src'] }),
  'src/config.ts': 'export interface Config { port: number }\n',
  'src/platform/deps.ts': "import type { Config } from '../config.js';\nexport interface Deps { config: Config }\n",
  'src/platform/web/page.ts': "import type { Deps } from '../deps.js';\nexport function page(deps: Deps): number { return deps.config.port; }\n",
  'src/alpha/make-alpha.ts': "import { page } from '../platform/web/page.js';\nimport type { Deps } from '../platform/deps.js';\nexport function makeAlpha(deps: Deps): number { return page(deps); }\n",
  'src/alpha/api.ts': "export { makeAlpha } from './make-alpha.js';\n",
  'src/alpha/index.ts': "import { makeAlpha } from './make-alpha.js';\nexport const alphaFeature = { name: 'alpha', makeAlpha };\n",
  'src/beta/use-alpha.ts': "import { makeAlpha } from '../alpha/api.js';\nexport const useAlpha = makeAlpha;\n",
  'src/beta/index.ts': "import { useAlpha } from './use-alpha.js';\nexport const betaFeature = { name: 'beta', useAlpha };\n",
  'src/features.ts': "import { alphaFeature } from './alpha/index.js';\nimport { betaFeature } from './beta/index.js';\nexport const features = [alphaFeature, betaFeature];\n",
};

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

function writeTree(files: Tree): string {
  const root = mkdtempSync(join(tmpdir(), 'kiln-boundaries-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function violationsIn(root: string): Promise<IViolation[]> {
  const options = await extractDepcruiseOptions(CONFIG);
  const result = await cruise(['src'], { ...options, validate: true, baseDir: root }, {}, { tsConfig: extractTSConfig(join(root, 'tsconfig.json')) });
  return (result.output as ICruiseResult).summary.violations;
}

function summary(violations: IViolation[]): Array<{ rule: string; from: string; to: string }> {
  return violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }));
}

describe('npm run lint: boundaries (.dependency-cruiser.cjs)', () => {
  describe('on a tree that keeps them', () => {
    it('finds nothing', async () => {
      expect(await violationsIn(writeTree(KEEPS_THE_RULES))).toEqual([]);
    });
  });

  describe('on a tree that breaks one', () => {
    it('fails on a cycle between two files of a feature', async () => {
      const root = writeTree({
        ...KEEPS_THE_RULES,
        'src/alpha/make-alpha.ts': "import { alphaLimit } from './limits.js';\nexport function makeAlpha(): number { return alphaLimit; }\n",
        'src/alpha/limits.ts': "import type { makeAlpha } from './make-alpha.js';\nexport const alphaLimit = 3;\nexport type Maker = typeof makeAlpha;\n",
      });
      const found = await violationsIn(root);
      expect(summary(found).map((violation) => violation.rule)).toEqual(['no-circular']);
      expect(new Set([found[0].from, ...(found[0].cycle ?? []).map((step) => step.name)])).toEqual(new Set(['src/alpha/limits.ts', 'src/alpha/make-alpha.ts']));
    });

    it('fails on two features that use each other, even through their public surfaces', async () => {
      const root = writeTree({
        ...KEEPS_THE_RULES,
        'src/beta/api.ts': "export const betaName = 'beta';\n",
        'src/alpha/name.ts': "import { betaName } from '../beta/api.js';\nexport const alphaName = `alpha-${betaName}`;\n",
        'src/alpha/index.ts': "import { makeAlpha } from './make-alpha.js';\nimport { alphaName } from './name.js';\nexport const alphaFeature = { name: alphaName, makeAlpha };\n",
      });
      const found = summary(await violationsIn(root));
      expect(found.length).toBeGreaterThan(0);
      expect(new Set(found.map((violation) => violation.rule))).toEqual(new Set(['no-circular-folders']));
      expect(found.map((violation) => [violation.from, violation.to].sort().join(' ↔ '))).toContain('src/alpha ↔ src/beta');
    });

    it('fails on two parts of platform that use each other', async () => {
      const root = writeTree({
        ...KEEPS_THE_RULES,
        'src/platform/http/api-error.ts': "export const unauthorized = 401;\n",
        'src/platform/http/route.ts': "import type { AuthUser } from '../auth/principal.js';\nexport type Handler = (user: AuthUser) => number;\n",
        'src/platform/auth/principal.ts': "export interface AuthUser { id: number }\n",
        'src/platform/auth/authenticate.ts': "import { unauthorized } from '../http/api-error.js';\nexport const refusal = unauthorized;\n",
      });
      const found = summary(await violationsIn(root));
      expect(new Set(found.map((violation) => violation.rule))).toEqual(new Set(['no-circular-folders']));
      expect(found.map((violation) => [violation.from, violation.to].sort().join(' ↔ '))).toContain('src/platform/auth ↔ src/platform/http');
    });

    it("fails on a feature importing another feature's internal file", async () => {
      const root = writeTree({ ...KEEPS_THE_RULES, 'src/beta/use-alpha.ts': "import { makeAlpha } from '../alpha/make-alpha.js';\nexport const useAlpha = makeAlpha;\n" });
      expect(summary(await violationsIn(root))).toEqual([{ rule: 'feature-public-surface', from: 'src/beta/use-alpha.ts', to: 'src/alpha/make-alpha.ts' }]);
    });

    it('fails on a type-only import of an internal file too', async () => {
      const root = writeTree({ ...KEEPS_THE_RULES, 'src/beta/types.ts': "import type { makeAlpha } from '../alpha/make-alpha.js';\nexport type Maker = typeof makeAlpha;\n" });
      expect(summary(await violationsIn(root))).toEqual([{ rule: 'feature-public-surface', from: 'src/beta/types.ts', to: 'src/alpha/make-alpha.ts' }]);
    });

    it('fails on platform importing a feature, even its public surface', async () => {
      const root = writeTree({ ...KEEPS_THE_RULES, 'src/platform/web/layout.ts': "import { makeAlpha } from '../../alpha/api.js';\nexport const layout = makeAlpha;\n" });
      const found = summary(await violationsIn(root));
      expect(found.filter((violation) => violation.rule !== 'no-circular-folders')).toEqual([{ rule: 'platform-knows-no-feature', from: 'src/platform/web/layout.ts', to: 'src/alpha/api.ts' }]);
    });

    it("fails on the composition root importing a feature's internal file", async () => {
      const root = writeTree({ ...KEEPS_THE_RULES, 'src/main.ts': "import { makeAlpha } from './alpha/make-alpha.js';\nexport const main = makeAlpha;\n" });
      expect(summary(await violationsIn(root))).toEqual([{ rule: 'composition-root-through-surfaces', from: 'src/main.ts', to: 'src/alpha/make-alpha.ts' }]);
    });

    it('fails on a feature importing the composition root', async () => {
      const root = writeTree({ ...KEEPS_THE_RULES, 'src/beta/all.ts': "import { features } from '../features.js';\nexport const count = features.length;\n" });
      const found = summary(await violationsIn(root));
      expect(found).toContainEqual({ rule: 'features-not-into-composition-root', from: 'src/beta/all.ts', to: 'src/features.ts' });
    });
  });

  describe('on src/', () => {
    it('finds nothing', async () => {
      expect(summary(await violationsIn(REPOSITORY))).toEqual([]);
    }, 60_000);
  });
});
