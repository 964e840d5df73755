// What other features may use of keys: the look-ups the SSH server and git access make.
export { deployKeyOnProject } from './deploy-key-access.js';
export { findKeyById, findKeyBySha256 } from './keys-finder.js';
export { checkKeyRestriction, keyUseMessage } from './key-restrictions.js';
export { noteKeyUse } from './note-key-use.js';
export type { KeyRow } from './entities.js';
export { keyTypeOf, fingerprintsOf } from './ssh-public-key.js';
export { resolveDeployToken } from './resolve-deploy-token.js';
export { findGpgKeyByKeyid, findSigningSshKey } from './signing-keys.js';
export { readGpgPublicKey } from './gpg-public-key.js';
export { sshKeyEntity, type GpgKeyRow } from './entities.js';
