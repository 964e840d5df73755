// What other features use of topics: the topics with their counts (the explore pages list them) and
// a topic avatar's address.
export { topicsQuery } from './topics-queries.js';
export { topicAvatarUrl } from './entities.js';
