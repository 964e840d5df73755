// Personal access tokens, one action per file; this module only re-exports them for the callers
// outside src/ that import it by this name (test helpers, benchmarks).
export { createPersonalAccessToken, PAT_SCOPES, type CreateTokenInput } from './create-personal-access-token.js';
export { revokePersonalAccessToken } from './revoke-personal-access-token.js';
export { resolvePersonalAccessToken } from './resolve-personal-access-token.js';
export { tokenEntity, type TokenRow } from './token-entities.js';
