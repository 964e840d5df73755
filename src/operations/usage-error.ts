// A mistake in how a command was called (a flag, an argument, a password typed twice differently):
// `kiln` prints its one-line message and exits with code 2, like a configuration error.
export class UsageError extends Error {}
