// Artifacts on the runner's side: the files an `artifacts:paths` list names (a file, a directory and
// everything under it, or a glob with `*`, `**` and `?`), less `exclude`, zipped with fflate; and a
// dependency's archive extracted into the build directory, refusing entries that would land outside it.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';

function globPattern(pattern: string): RegExp {
  let source = '';
  const text = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '*' && text[i + 1] === '*') {
      source += '.*';
      i += text[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A pattern that names a directory takes everything under it.
  return new RegExp(`^${source}(?:/.*)?$`);
}

async function filesUnder(root: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (path === '.git') continue;
    if (entry.isDirectory()) found.push(...(await filesUnder(root, path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** The build directory's files that `paths` name and `exclude` does not, relative with `/`. */
export async function matchArtifacts(root: string, paths: string[], exclude: string[] = []): Promise<string[]> {
  const wanted = paths.map(globPattern);
  const unwanted = exclude.map(globPattern);
  const files = await filesUnder(root);
  return files.filter((file) => wanted.some((re) => re.test(file)) && !unwanted.some((re) => re.test(file))).sort();
}

/** For each of `paths`, the files it names (one walk of the tree, so the log can say what each path found). */
export async function matchEachPath(root: string, paths: string[]): Promise<Map<string, string[]>> {
  const files = await filesUnder(root);
  return new Map(paths.map((path) => {
    const re = globPattern(path);
    return [path, files.filter((file) => re.test(file))];
  }));
}

export async function zipFiles(root: string, files: string[]): Promise<Uint8Array> {
  const entries: Zippable = {};
  for (const file of files) entries[file] = new Uint8Array(await readFile(join(root, file)));
  return zipSync(entries, { level: 6 });
}

/** Extracts `archive` into `root`; an entry with an absolute path or `..` is refused (zip slip). */
export async function extractZip(root: string, archive: Uint8Array): Promise<number> {
  const entries = unzipSync(archive);
  const base = resolve(root);
  let count = 0;
  for (const [name, data] of Object.entries(entries)) {
    const target = resolve(base, name);
    if (target !== base && !target.startsWith(base + sep)) throw new Error(`the archive's entry ${JSON.stringify(name)} points outside the build directory`);
    if (name.endsWith('/')) {
      await mkdir(target, { recursive: true });
      continue;
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
    count += 1;
  }
  return count;
}
