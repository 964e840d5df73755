// GitLab's WikiPageBasic (format, slug, title) and WikiPage (and content, encoding, front_matter)
// entities, explicit fields.
import type { WikiPage, WikiPageRef } from './finder.js';
import { titleOfSlug } from './page-names.js';

export interface WikiPageBasicEntity {
  format: string;
  slug: string;
  title: string;
}

export interface WikiPageEntity extends WikiPageBasicEntity {
  content: string;
  encoding: string;
  front_matter: Record<string, unknown>;
}

export function wikiPageBasic(page: WikiPageRef | WikiPage): WikiPageBasicEntity {
  return { format: page.format, slug: page.slug, title: 'title' in page ? page.title : titleOfSlug(page.slug) };
}

/** `content`: the stored text, or its rendering when the caller asked for HTML. */
export function wikiPageEntity(page: WikiPage, content = page.content): WikiPageEntity {
  return { ...wikiPageBasic(page), content, encoding: 'UTF-8', front_matter: page.frontMatter };
}
