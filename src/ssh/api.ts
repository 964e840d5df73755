// What the composition root uses of ssh: starting the server.
export { startSshServer, type SshServer, type SshServerOptions } from './server.js';
