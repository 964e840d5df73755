import type { Generated } from 'kysely';

export interface BroadcastMessagesTable {
  id: Generated<number>;
  /** The Markdown the administrator wrote. */
  message: string;
  /** Its sanitised rendering, kept with it (GitLab's cached Markdown field). */
  message_html: string;
  starts_at: number;
  ends_at: number;
  /** GitLab's legacy background and text colours (hex), kept for the API; pages use the theme. */
  color: string | null;
  font: string | null;
  theme: string;
  /** `banner` or `notification`. */
  broadcast_type: string;
  /** 1 or 0. */
  dismissable: number;
  /** A path pattern with `*` wildcards; empty for every page. */
  target_path: string;
  /** JSON array of access levels (10 … 50); empty for everyone. */
  target_access_levels: string;
  created_at: number;
  updated_at: number;
}

export interface BroadcastMessagesTables {
  broadcast_messages: BroadcastMessagesTable;
}
