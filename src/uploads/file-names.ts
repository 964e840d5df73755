// What an uploaded file is called and how it is linked and served (GitLab's FileUploader and
// UploaderHelper): the client's name reduced to word characters, dots, dashes and pluses (CarrierWave's
// sanitize_regexp), images, videos and audio embedded in the Markdown with `!`, and only types a
// browser shows passively served inline — everything else, SVG and HTML included, is a download.
const KINDS: Readonly<Record<string, { type: string; embed: boolean; inline: boolean }>> = {
  png: { type: 'image/png', embed: true, inline: true },
  jpg: { type: 'image/jpeg', embed: true, inline: true },
  jpeg: { type: 'image/jpeg', embed: true, inline: true },
  gif: { type: 'image/gif', embed: true, inline: true },
  webp: { type: 'image/webp', embed: true, inline: true },
  bmp: { type: 'image/bmp', embed: true, inline: true },
  ico: { type: 'image/x-icon', embed: true, inline: true },
  tiff: { type: 'image/tiff', embed: true, inline: true },
  // An <img> shows an SVG without running it; opened on its own it could script, so it downloads.
  svg: { type: 'image/svg+xml', embed: true, inline: false },
  mp4: { type: 'video/mp4', embed: true, inline: true },
  webm: { type: 'video/webm', embed: true, inline: true },
  mov: { type: 'video/quicktime', embed: true, inline: true },
  ogv: { type: 'video/ogg', embed: true, inline: true },
  mp3: { type: 'audio/mpeg', embed: true, inline: true },
  oga: { type: 'audio/ogg', embed: true, inline: true },
  ogg: { type: 'audio/ogg', embed: true, inline: true },
  wav: { type: 'audio/wav', embed: true, inline: true },
  flac: { type: 'audio/flac', embed: true, inline: true },
  txt: { type: 'text/plain; charset=utf-8', embed: false, inline: true },
  pdf: { type: 'application/pdf', embed: false, inline: false },
};

/** Longest stored name, in characters (a file system's usual limit). */
export const MAX_FILENAME = 255;

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The client's name as stored and served: its last path segment, sanitised; never empty, never `.` or `..`. */
export function sanitizeFilename(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  let clean = base.replace(/[^\p{L}\p{N}_.+-]/gu, '_');
  if (/^\.*$/.test(clean)) clean = `_${clean}`;
  return [...clean].slice(-MAX_FILENAME).join('');
}

export function isEmbedded(filename: string): boolean {
  return KINDS[extension(filename)]?.embed ?? false;
}

/** `dk` for `dk.png` (embedded files are named without their extension), else the whole name. */
export function altText(filename: string): string {
  if (!isEmbedded(filename)) return filename;
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}

/** GitLab's markdown_link: `![dk](/uploads/…/dk.png)` or `[notes.txt](/uploads/…/notes.txt)`, brackets escaped. */
export function markdownLink(filename: string, url: string): string {
  const text = altText(filename).replace(/[[\]\\]/g, (c) => `\\${c}`);
  return `${isEmbedded(filename) ? '!' : ''}[${text}](${url})`;
}

/** How the file is served: its type and whether a browser may show it in place. */
export function servedAs(filename: string): { type: string; disposition: 'inline' | 'attachment' } {
  const kind = KINDS[extension(filename)];
  if (!kind) return { type: 'application/octet-stream', disposition: 'attachment' };
  return { type: kind.type, disposition: kind.inline ? 'inline' : 'attachment' };
}
