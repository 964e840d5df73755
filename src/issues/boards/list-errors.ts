// Refusals of the list writes, as GitLab words them (lib/api/boards_responses.rb): the API answers
// each with 400 `{"message": {"error": …}}`.
export class BoardListError extends Error {}

export const LABEL_NOT_FOUND = 'Label not found!';
export const LABEL_TAKEN = 'Label has already been taken';
export const CANNOT_MOVE = 'List could not be moved!';
