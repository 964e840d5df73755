// Every application setting Kiln stores is named in docs/operations/configuration.md with the default
// it has: the ones that do something in the table (with what they do), the rest with the one value
// they accept. A setting added to definitions.ts without its line fails here.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SETTINGS, SETTING_NAMES } from '../../src/application-settings/definitions.js';

const guide = readFileSync(new URL('../../docs/operations/configuration.md', import.meta.url), 'utf8');
const section = guide.slice(guide.indexOf('## Instance settings (through the API)'));

describe('docs/operations/configuration.md: instance settings', () => {
  it('has the section', () => {
    expect(section.startsWith('## Instance settings')).toBe(true);
  });

  it('the table gives every setting that changes behaviour, with its default and what it does', () => {
    const rows = new Map([...section.matchAll(/^\| `(\w+)` \| `([^`]*)` \| (.+) \|$/gm)].map((match) => [match[1], { shown: match[2], meaning: match[3] }]));
    const adjustable = SETTING_NAMES.filter((name) => !('fixed' in SETTINGS[name]));
    expect([...rows.keys()].sort()).toEqual([...adjustable].sort());
    for (const name of adjustable) {
      const fallback = SETTINGS[name].default;
      expect(rows.get(name)!.shown, name).toBe(typeof fallback === 'string' ? fallback : JSON.stringify(fallback));
      expect(rows.get(name)!.meaning.length, name).toBeGreaterThan(30);
    }
  });

  it('names every fixed setting with the one value it accepts', () => {
    const named = new Map([...section.matchAll(/`(\w+)`\s+\(`([^`]*)`\)/g)].map((match) => [match[1], match[2]]));
    for (const name of SETTING_NAMES.filter((candidate) => 'fixed' in SETTINGS[candidate])) {
      expect(named.get(name), name).toBe(JSON.stringify(SETTINGS[name].default));
    }
  });
});
