export interface WebSessionsTable {
  id_digest: string;
  user_id: number | null;
  pending_user_id: number | null;
  csrf_token: string;
  flash: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** Where the session was signed in from, for the user's active sessions page. */
  ip_address: string | null;
  user_agent: string | null;
  /** The administrator who signed this session in as `user_id` (impersonation), else null. */
  impersonator_id: number | null;
}

export interface WebTables {
  web_sessions: WebSessionsTable;
}
