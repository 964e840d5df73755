// A page's front matter (GitLab's Gitlab::FrontMatter for wiki pages): YAML between `---` lines at the
// very top. The API returns its keys as `front_matter` and the content after it; a `title` there is
// the title the page shows. YAML that is not a mapping, or does not parse, is no front matter.
import { parse } from 'yaml';

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
}

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
/** Front matter is a few lines; a larger block is read as content. */
const MAX_FRONT_MATTER = 64 * 1024;

export function splitFrontMatter(content: string): FrontMatter {
  const match = BLOCK.exec(content);
  if (!match || match[1].length > MAX_FRONT_MATTER) return { data: {}, body: content };
  try {
    const data: unknown = parse(match[1], { maxAliasCount: 10, schema: 'core' });
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { data: {}, body: content };
    return { data: data as Record<string, unknown>, body: content.slice(match[0].length) };
  } catch {
    return { data: {}, body: content };
  }
}
