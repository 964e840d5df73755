// A user's profile at /<username>: name, status, bio, and the activity the visitor may see (the same
// visibility as GET /users/:id/events; a private profile shows none to others).
import { html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { avatarUrl, isWebAddress, userStatusOf, type UserRow } from '../accounts/api.js';
import { emojiCharacter } from '../platform/emoji-names.js';
import { renderActivity } from '../events/api.js';

export async function renderUserProfile(context: PageContext, user: UserRow) {
  const viewer = context.user ?? null;
  const hidden = user.private_profile === 1 && !viewer?.admin && viewer?.id !== Number(user.id);
  const [activity, status] = await Promise.all([
    hidden ? null : renderActivity(context.deps, viewer, { author: Number(user.id) }, { limit: 20, showProject: true }),
    userStatusOf(context.deps, Number(user.id)),
  ]);
  const body = html`
<p class="muted">@${user.username}${user.pronouns ? html` · ${user.pronouns}` : ''}${user.state !== 'active' ? html` <span class="badge">${user.state}</span>` : ''}</p>
${status ? html`<p class="user-status"><span aria-hidden="true">${emojiCharacter(status.emoji) ?? ''}</span> ${status.message ?? ''}${status.availability === 'busy' ? html` <span class="badge">Busy</span>` : ''}</p>` : ''}
${user.bio ? html`<p class="bio">${user.bio}</p>` : ''}
${user.location ? html`<p>${user.location}</p>` : ''}
${isWebAddress(user.website_url) ? html`<p><a href="${user.website_url}" rel="nofollow noopener">${user.website_url}</a></p>` : ''}
${user.public_email ? html`<p>${user.public_email}</p>` : ''}
<h2>Activity</h2>
${activity ? activity.list : html`<p class="empty">This user has a private profile.</p>`}`;
  return page({ title: user.name, heading: html`<h1><img class="profile-avatar" src="${avatarUrl('', user)}" alt="" width="64" height="64"> ${user.name}</h1>`, body });
}
