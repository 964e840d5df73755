// What other features may use of uploads: the size of a project's uploads (project statistics), and
// where an upload's file is (backup and restore).
export { projectUploadsSize } from './finder.js';
export { SECRET as UPLOAD_SECRET, uploadFilePath } from './upload-files.js';
// The "Attach a file" control Markdown forms include.
export { attachControl } from './attach-control.js';
// Issue 38 (wiki attachments): a client's file name as stored, the Markdown that links a file, and how it is served.
export { sanitizeFilename, markdownLink, servedAs } from './file-names.js';
export { MAX_UPLOAD_BYTES } from './create-upload.js';
