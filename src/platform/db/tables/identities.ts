// Users' external identities (migration 20261231T0920-identities).
import type { Generated } from 'kysely';

export interface IdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  extern_uid: string;
  created_at: number;
  updated_at: number;
}

export interface IdentitiesTables {
  identities: IdentitiesTable;
}
