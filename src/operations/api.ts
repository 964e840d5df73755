// What the command line (main.ts, admin-commands.ts) and startup (bootstrap.ts) use of operations:
// preflight checks, the start banner, the terminal log, secrets, backup and restore.
export { readPassword } from './read-password.js';
export { parseExpiryDate } from './expiry-date.js';
export { backup } from './backup.js';
export { restore } from './restore.js';
export { checkDirectories, checkListenAddress, checkSshListenAddress } from './preflight.js';
export { checkDatabaseReachable } from './check-database.js';
export { startBanner } from './start-banner.js';
export { logDestination, wantsText } from './terminal-log.js';
export { loadInstanceSecrets } from './secrets-check.js';
