// License templates from the SPDX License List (the `spdx-license-list` package: each license's SPDX
// id, name, reference URL, OSI approval and text). Keys are the SPDX ids in lower case, as GitLab's
// (`mit`, `apache-2.0`, `gpl-3.0`); any SPDX license is found by its key, and lists offer the OSI
// approved ones. GitLab's `popular` licenses are those choosealicense.com features.
import { createRequire } from 'node:module';

interface SpdxLicense { name: string; url: string; osiApproved: boolean; licenseText: string }

let list: Record<string, SpdxLicense> | undefined;

/** The SPDX list, read on first use: its texts are ~130 ms of parsing, too much for every start. */
function spdxList(): Record<string, SpdxLicense> {
  list ??= createRequire(import.meta.url)('spdx-license-list/full') as Record<string, SpdxLicense>;
  return list;
}

export const POPULAR = new Set(['apache-2.0', 'gpl-3.0', 'mit']);

export interface License {
  key: string;
  name: string;
  url: string;
  text: string;
}

let byKey: Map<string, License> | undefined;

function licenses(): Map<string, License> {
  byKey ??= new Map(Object.entries(spdxList()).map(([id, license]) => [id.toLowerCase(), { key: id.toLowerCase(), name: license.name, url: license.url, text: license.licenseText }]));
  return byKey;
}

/** The OSI approved licenses (only the popular ones with `popular`), by name. */
export function listedLicenses(popular: boolean): License[] {
  return Object.entries(spdxList())
    .filter(([id, license]) => license.osiApproved && (!popular || POPULAR.has(id.toLowerCase())))
    .map(([id]) => licenses().get(id.toLowerCase())!)
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
}

export function findLicense(key: string): License | undefined {
  return licenses().get(key.toLowerCase());
}

// GitLab's LicenseTemplate placeholders, and the SPDX texts' own spellings of the same ones
// (`<year>`, `<copyright holders>`, `[name of copyright owner]`).
const YEAR = /[<{[](?:year|yyyy)[>}\]]/gi;
const FULLNAME = /[<{[](?:fullname|name of (?:author|copyright owner)|copyright holders?|owner)[>}\]]/gi;
const PROJECT = /[<{[]project[>}\]]/gi;

/** The license text with the year, the copyright holder's name and the project's name filled in. */
export function fillLicense(text: string, values: { year: number; fullname: string; project: string | undefined }): string {
  let filled = text.replace(YEAR, String(values.year)).replace(FULLNAME, () => values.fullname);
  if (values.project !== undefined) filled = filled.replace(PROJECT, () => values.project!);
  return filled;
}
