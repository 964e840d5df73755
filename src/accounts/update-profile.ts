// A user edits their own profile: the fields GitLab's profile page has. The website must be an
// http(s) address, since profile pages link it (a `javascript:` link would run in the visitor's page).
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { updateUser } from './update-user.js';

export interface ProfileInput {
  name: string;
  public_email: string;
  bio: string;
  location: string;
  website_url: string;
  pronouns: string;
}

export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function updateProfile(deps: Deps, userId: number, input: ProfileInput): Promise<void> {
  const website = input.website_url.trim();
  const errors: Record<string, string[]> = {};
  if (website !== '' && !isWebAddress(website)) errors.website_url = ['is not a valid URL'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await updateUser(deps, userId, { ...input, website_url: website, name: input.name, location: input.location.trim(), pronouns: input.pronouns.trim() });
}
