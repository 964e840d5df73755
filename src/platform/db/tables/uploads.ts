// Markdown uploads (migration 20261229T0335-uploads).
import type { Generated } from 'kysely';

export interface UploadsTable {
  id: Generated<number>;
  project_id: number;
  /** 32 hexadecimal characters from the instance's random source: the unguessable part of the URL. */
  secret: string;
  /** The sanitised name the file is served under. */
  filename: string;
  size: number;
  uploaded_by_user_id: number | null;
  created_at: number;
}

export interface UploadsTables {
  uploads: UploadsTable;
}
