// The new and edit forms of a snippet: title, description, visibility, and its files as rows of a
// path and a text (the existing ones and one more, empty). A refused form comes back as it was typed,
// with the reason above it.
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, type Html } from '../platform/web/html.js';
import { BadRequestError, ParamError, ValidationError } from '../platform/errors.js';
import { longerThan } from '../platform/http/params.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import { checkTotal, defaultFileName, filePath, MAX_FILES, type SnippetFile } from './snippet-input.js';

export interface SnippetFormValues {
  title: string;
  description: string;
  visibility: SnippetVisibility;
  files: SnippetFile[];
  /** The snippet's binary files (edit form): shown by name, out of the text areas, kept as they are on save. */
  binaryPaths?: string[];
}

const VISIBILITIES: Array<[SnippetVisibility, string]> = [['private', 'Private'], ['internal', 'Internal'], ['public', 'Public']];

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const one = (value: string | string[] | undefined): string => (Array.isArray(value) ? value[0] ?? '' : value ?? '');

/** The submitted form as a snippet, or a sentence saying what is wrong. */
export function readSnippetForm(form: PageContext['form']): { values: SnippetFormValues; error: string | null } {
  const paths = list(form.file_path);
  const contents = list(form.content);
  const rows = contents.map((content, index) => ({ path: (paths[index] ?? '').trim(), content }));
  const values: SnippetFormValues = {
    title: one(form.title).trim(), description: one(form.description),
    visibility: (VISIBILITIES.find(([value]) => value === one(form.visibility))?.[0] ?? 'private'),
    files: rows.filter((row) => row.path !== '' || row.content !== ''),
  };
  try {
    if (values.title === '') return { values, error: 'Title can’t be blank.' };
    if (longerThan(values.title, 255)) return { values, error: 'Title is too long (at most 255 characters).' };
    if (values.files.length === 0) return { values, error: 'A snippet needs at least one file with some content.' };
    if (values.files.length > MAX_FILES) return { values, error: `A snippet has at most ${MAX_FILES} files.` };
    values.files = values.files.map((file, index) => {
      if (file.content === '') throw new ParamError(`The file ${file.path || index + 1} is empty.`);
      return { path: file.path === '' ? defaultFileName(index) : filePath(file.path, `File name ${file.path}`), content: file.content };
    });
    checkTotal(values.files);
    return { values, error: null };
  } catch (error) {
    if (error instanceof ParamError || error instanceof BadRequestError || error instanceof ValidationError) return { values, error: error instanceof BadRequestError ? error.reason ?? 'Not saved.' : error.message };
    throw error;
  }
}

export function snippetForm(context: PageContext, action: string, cancel: string, values: SnippetFormValues, error: string | null): Html {
  const rows = [...values.files, { path: '', content: '' }].slice(0, Math.max(MAX_FILES, values.files.length));
  return html`<form method="post" action="${action}" class="stacked" id="snippet-form">${csrfField(context)}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<label for="snippet-title">Title</label><input type="text" id="snippet-title" name="title" value="${values.title}" required maxlength="255">
<label for="snippet-description">Description (optional, Markdown)</label><textarea id="snippet-description" name="description" rows="3">${values.description}</textarea>
<fieldset><legend>Visibility</legend>${VISIBILITIES.map(([value, text]) => html`<label class="inline-label"><input type="radio" name="visibility" value="${value}"${values.visibility === value ? html` checked` : ''}> ${text}</label> `)}</fieldset>
${(values.binaryPaths ?? []).length > 0 ? html`<fieldset class="snippet-binary-files"><legend>Binary files</legend><ul>${values.binaryPaths!.map((path) => html`<li>${path}</li>`)}</ul>
<p class="muted">Binary files are kept as they are; change or remove them with git.</p></fieldset>` : ''}
${rows.map((file, index) => html`<fieldset class="snippet-file-field"><legend>File ${index + 1}${index === values.files.length ? ' (new, optional)' : ''}</legend>
<label for="snippet-file-path-${index}">File name</label><input type="text" id="snippet-file-path-${index}" name="file_path[]" value="${file.path}" maxlength="255" placeholder="${defaultFileName(index)}">
<label for="snippet-file-content-${index}">Content</label><textarea id="snippet-file-content-${index}" name="content[]" rows="10" class="code-input" spellcheck="false">${file.content}</textarea>
<p class="muted">Leave both empty to remove this file.</p></fieldset>`)}
<p class="actions"><button type="submit">Save snippet</button> <a href="${cancel}">Cancel</a></p>
</form>`;
}
