// The access-level rule of `npm run lint` (eslint.config.js, issue 13): comparing access levels is a
// policy decision, so `ACCESS.x` and a `.level`/`.access_level` in a relational comparison are refused
// outside src/platform/auth/policies, and allowed there.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const REPOSITORY = resolve(import.meta.dirname, '../..');
const RULE = 'no-restricted-syntax';
const eslint = new ESLint({ cwd: REPOSITORY });

/** The messages of the access-level rule for `code` as if it were the file at `path`. */
async function refusals(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(REPOSITORY, path) });
  return result.messages.filter((message) => message.ruleId === RULE).map((message) => message.message);
}

const CONSTANT = "import { ACCESS } from '../platform/auth/access-levels.js';\nexport const canPush = (level: number) => level >= ACCESS.DEVELOPER;\n";
const CONSTANT_LEFT = "import { ACCESS } from '../platform/auth/access-levels.js';\nexport const below = (level: number) => ACCESS.MAINTAINER > level;\n";
const MEMBER_FIELD = 'export const isMaintainer = (member: { access_level: number }) => member.access_level >= 40;\n';
const LEVEL_FIELD = 'export const isReporter = (access: { level: number }) => 20 <= access.level;\n';
const REFUSED = /Access levels are compared only in src\/platform\/auth\/policies/;

describe('access-level comparisons in src/', () => {
  it('are refused in a feature file: against ACCESS.x on either side, and on .access_level or .level', async () => {
    for (const code of [CONSTANT, CONSTANT_LEFT, MEMBER_FIELD, LEVEL_FIELD]) {
      expect(await refusals('src/issues/update-issue.ts', code)).toEqual([expect.stringMatching(REFUSED)]);
    }
  });

  it('are refused in platform outside the policies', async () => {
    expect(await refusals('src/platform/http/route.ts', MEMBER_FIELD)).toHaveLength(1);
    expect(await refusals('src/platform/auth/subjects.ts', CONSTANT.replace('../platform/auth/', './'))).toHaveLength(1);
  });

  it('are allowed in src/platform/auth/policies', async () => {
    for (const code of [CONSTANT, MEMBER_FIELD, LEVEL_FIELD]) {
      expect(await refusals('src/platform/auth/policies/member-policy.ts', code.replace('../platform/auth/', '../'))).toEqual([]);
    }
  });

  it('leaves other comparisons and equality alone', async () => {
    const code = "export const deep = (depth: number, limit: number) => depth + 1 > limit;\nexport const same = (a: { access_level: number }, b: number) => a.access_level === b;\n";
    expect(await refusals('src/alerts/payload/limits.ts', code)).toEqual([]);
  });

  it('are refused in the data-access layer and *-queries.ts files too', async () => {
    expect(await refusals('src/platform/db/like.ts', MEMBER_FIELD)).toHaveLength(1);
    expect(await refusals('src/accounts/member-facts-queries.ts', CONSTANT)).toHaveLength(1);
  });

  // Both rules set no-restricted-syntax; flat config would keep only the later one's options.
  it('keep the transaction rule alongside, in features and in the policies', async () => {
    const both = `${MEMBER_FIELD}export const t = (db: { transaction(): unknown }) => db.transaction();\n`;
    expect(await refusals('src/issues/update-issue.ts', both)).toEqual([expect.stringMatching(REFUSED), 'Open a transaction with inTransaction (src/platform/db/README.md).']);
    expect(await refusals('src/platform/auth/policies/policy.ts', both)).toEqual(['Open a transaction with inTransaction (src/platform/db/README.md).']);
  });
});
