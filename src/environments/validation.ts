// Environment model validations and their exact messages (GitLab's REST API documentation, GitLab's
// app/models/environment.rb 14.x). Fields and messages come out in Rails' order: name, slug,
// external_url; within a field presence, uniqueness, length, format.
import { blockedUrlReason } from '../platform/url-blocker.js';
import { SLUG_MAX_LENGTH } from './slug.js';

// Gitlab::Regex.environment_name_regex: no `/` at either end.
const NAME_FORMAT = /^[a-zA-Z0-9_${}. -]([a-zA-Z0-9_/${}. -]*[a-zA-Z0-9_${}. -])?$/;
const NAME_FORMAT_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
const SLUG_FORMAT = /^[a-z]([a-z0-9-]*[a-z0-9])?$/;
const SLUG_FORMAT_MESSAGE = "can contain only lowercase letters, digits, and '-'. Must start with a letter, and cannot end with '-'";
const MAX_LENGTH = 255;

export interface EnvironmentFields {
  name: string;
  slug: string;
  externalUrl: string | null;
}

/** Which of the values another environment of the project already uses. */
export interface Taken {
  name: boolean;
  slug: boolean;
}

/** GitLab's before_validation: surrounding whitespace goes, and a blank URL is no URL. */
export function normalizeExternalUrl(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function tooLong(max: number): string {
  return `is too long (maximum is ${max} characters)`;
}

export function environmentErrors(fields: EnvironmentFields, taken: Taken): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (fields.name.trim() === '') add('name', "can't be blank");
  if (taken.name) add('name', 'has already been taken');
  if (fields.name.length > MAX_LENGTH) add('name', tooLong(MAX_LENGTH));
  if (!NAME_FORMAT.test(fields.name)) add('name', NAME_FORMAT_MESSAGE);

  if (fields.slug === '') add('slug', "can't be blank");
  if (taken.slug) add('slug', 'has already been taken');
  if (fields.slug.length > SLUG_MAX_LENGTH) add('slug', tooLong(SLUG_MAX_LENGTH));
  if (!SLUG_FORMAT.test(fields.slug)) add('slug', SLUG_FORMAT_MESSAGE);

  if (fields.externalUrl !== null) {
    if (fields.externalUrl.length > MAX_LENGTH) add('external_url', tooLong(MAX_LENGTH));
    const reason = blockedUrlReason(fields.externalUrl, { schemes: ['http', 'https'] });
    if (reason) add('external_url', `is blocked: ${reason}`);
  }
  return errors;
}
