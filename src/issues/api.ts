// What other features may use of issues: creating and updating an issue (alerts open and close
// incidents), the users of notes and note entities. Everything else in this folder is internal.
export { createIssue } from './create-issue.js';
export { updateIssue } from './update-issue.js';
export { noteEntity, usersById } from './entities.js';
// Issue 15 (search): issues the caller may read across projects or in one, and their entities.
export { readableIssuesQuery, projectIssuesQuery } from './issues-queries.js';
export { narrowIssueSearch } from './issue-search-queries.js';
// Issue 16 (milestone pages): the issues of a milestone the viewer may read.
export { milestoneIssuesQuery } from './issues-queries.js';
export { confidentialScope, findReadableIssue } from './finder.js';
export { presentIssue, presentIssues } from './present-issues.js';
export { visibleParticipants } from './participants.js';
// Hooks other features register at setup for issues to call (hooks.ts).
export { issueHooks, NO_ISSUABLE_TEMPLATES, type IssuableTemplateRequest, type IssuableTemplates } from './hooks.js';
// Issue 34 (merge request review): the notes machinery for any noteable — its routes, given a kind
// (noteable-kind.ts), creating, replying, finding and presenting notes and discussions.
export { noteRoutes } from './note-routes.js';
export { discussionRoutes } from './discussion-routes.js';
export type { NoteableKind, NotePresenter } from './noteable-kind.js';
export { isResolvable, type Noteable, type NoteableType } from './noteable.js';
export { checkNoteBody, createNote, newDiscussionId, type DiffAttributes, type NoteOptions } from './create-note.js';
export { replyToDiscussion } from './reply-to-discussion.js';
export { updateNote } from './update-note.js';
export { destroyNote } from './destroy-note.js';
export { discussionIdsQuery, discussionsOf, findDiscussion, findNote } from './discussions-finder.js';
export { discussionEntity, noteUserIds, type NoteExtras, type NoteRow, type Users } from './entities.js';
export { timeOf } from './issue-params.js';
// Issue 34 (award emoji): the award emoji routes for any noteable kind, and the votes entities count.
export { awardEmojiRoutes } from './award-emoji/award-emoji-routes.js';
export { DOWNVOTE, UPVOTE, voteCounts } from './award-emoji/award-emoji.js';
export { reactionCondition } from './award-emoji/reaction-queries.js';
// Issue 34: "mentioned in commit" notes for the commits a push brings.
export { crossReferenceCommits } from './cross-references.js';
// Issue 34: the award emoji block of the issue and merge request pages.
export { awardBlock, noteAwardBlock, noteAwards, toggleAwardPost, toggleNoteAwardPost } from './award-emoji/award-bar.js';
// "mentioned in" notes are shown only to readers of their source (the merge request pages).
export { visibleNotes } from './cross-reference-visibility.js';
// Issue 38: the state and milestone history routes, for merge requests too.
export { resourceEventRoutes } from './resource-events/resource-event-routes.js';
