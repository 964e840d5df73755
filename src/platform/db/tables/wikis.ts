import type { Generated } from 'kysely';

/** A project wiki page's meta record: the target of its activity events (migration 20261230T0025). */
export interface WikiPageMetaTable {
  id: Generated<number>;
  project_id: number;
  /** The page's current slug (a rename moves it). */
  slug: string;
  title: string;
  format: string;
  /** 1 once the page was deleted. */
  removed: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface WikisTables {
  wiki_page_meta: WikiPageMetaTable;
}
