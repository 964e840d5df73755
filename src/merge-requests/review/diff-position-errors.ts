// How GitLab refuses an invalid note (lib/api/discussions.rb: `bad_request!("Note #{note.errors.messages}")`):
// the model's errors as a Ruby hash, `400 Bad request - Note {:line_code=>["can't be blank"], …}`.
import { BadRequestError } from '../../platform/errors.js';

export const LINE_CODE_ERRORS = ["can't be blank", 'must be a valid line code'];

function rubyHash(errors: Record<string, string[]>): string {
  return `{${Object.entries(errors).map(([field, messages]) => `:${field}=>[${messages.map((message) => JSON.stringify(message)).join(', ')}]`).join(', ')}}`;
}

export function noteInvalid(errors: Record<string, string[]>): BadRequestError {
  return new BadRequestError(`Note ${rubyHash(errors)}`);
}
