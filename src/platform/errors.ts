// Domain errors thrown by actions and finders. They know nothing of HTTP; platform/http/error-handler.ts
// maps each to GitLab's wire shape.

/**
 * A mistake in how a `kiln` command was called (a flag, an argument, a password typed twice
 * differently): `kiln` prints its one-line message and exits with code 2, like a configuration
 * error. Here rather than in operations so the command line tells it without loading operations.
 */
export class UsageError extends Error {}

/** A record that does not exist or that the actor may not see. `resource` as in "404 Project Not Found". */
export class NotFoundError extends Error {
  constructor(readonly resource?: string) {
    super(resource ? `${resource} not found` : 'not found');
  }
}

/** A child record looked up through its parent that is missing: GitLab's RecordNotFound, "404 Not found". */
export class RecordNotFoundError extends Error {}

export class ForbiddenError extends Error {
  constructor(readonly reason?: string) {
    super(reason ?? 'forbidden');
  }
}

/**
 * A project feature the caller does not have at all (disabled, or private to members): the API's
 * 403 as any ForbiddenError; a page of the feature answers 404 instead (page-route.ts `feature`).
 */
export class FeatureUnavailableError extends ForbiddenError {
  constructor(readonly feature: string) {
    super();
  }
}

/** Model validation failure: `{"message": {"field": ["message", …]}}` with 400. */
export class ValidationError extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super(Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`).join('; '));
  }
}

/** A bad request with a sentence: `{"message": "400 Bad request - <reason>"}`. */
export class BadRequestError extends Error {
  constructor(readonly reason?: string) {
    super(reason ?? 'bad request');
  }
}

/** Parameter validation in Grape's words: `{"error": "name is missing"}` with 400. */
export class ParamError extends Error {}

export class ConflictError extends Error {
  constructor(readonly detail?: string) {
    super(detail ?? 'conflict');
  }
}

/**
 * A refusal GitLab answers with a status and `{"message": …}` exactly as given: a model's error list
 * (`["Another open merge request already exists …"]` with 409 or 422) or a sentence (405, 406).
 */
export class StatusError extends Error {
  constructor(readonly status: number, readonly body: string | string[]) {
    super(Array.isArray(body) ? body.join('; ') : body);
  }
}
