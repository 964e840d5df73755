// What other features may use of uploads: the size of a project's uploads (project statistics).
export { projectUploadsSize } from './finder.js';
