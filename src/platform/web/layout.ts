// The page shell: header, navigation, flash message. Loads nothing from outside Kiln.
import type { AuthUser } from '../auth/principal.js';
import { canOnInstance } from '../auth/policies/policy.js';
import { html, type Html } from './html.js';
import { SHORTCUTS_DIALOG, shortcutsButton } from './shortcuts/dialog.js';

/** What a page may add around its body: a sidebar (a project's or group's), its own heading, scripts. */
export interface PageFrame {
  sidebar?: Html;
  /** Replaces the plain `<h1>` of the title (a heading with a badge, say). */
  heading?: Html;
  /** Static scripts under /-/assets/ (progressive enhancement; CSP allows only our own files). */
  scripts?: string[];
}

export interface LayoutInput extends PageFrame {
  title: string;
  body: Html;
  user: AuthUser | null;
  csrfToken: string | null;
  flash?: string | null;
  /** The signed-in user's theme; `system` (and every anonymous visitor) follows the browser. */
  theme?: 'light' | 'dark' | 'system';
  /** The signed-in user's avatar (a path on this host), shown beside their name in the top bar. */
  avatarUrl?: string | null;
  /** The signed-in user's pending to-dos (the top bar's count; 100 stands for "99+"). */
  todosCount?: number;
  /** The administrator acting as `user` (impersonation): every page says so and offers the way back. */
  impersonator?: { id: number; username: string } | null;
  /** The signed-in user's primary address awaiting confirmation (email_confirmation_setting `soft`). */
  unconfirmedEmail?: string | null;
  /** Broadcast messages: banners above the page, notifications below it. */
  broadcasts?: { banners: Html; notifications: Html } | null;
}

function impersonationBanner(input: LayoutInput): Html {
  if (!input.impersonator || !input.user) return html``;
  return html`<div class="impersonation-banner" role="region" aria-label="Impersonation">
  <span>You are now impersonating <strong>${input.user.username}</strong></span>
  <form method="post" action="/admin/impersonation" class="inline"><input type="hidden" name="authenticity_token" value="${input.csrfToken ?? ''}"><button type="submit" class="secondary">Stop impersonating</button></form>
</div>`;
}

/** Under `soft` an unconfirmed account works for a grace period: every page asks for the mailed link. */
function confirmationBanner(input: LayoutInput): Html {
  if (!input.unconfirmedEmail || !input.user) return html``;
  return html`<div class="confirmation-banner" role="region" aria-label="Email confirmation">
  <span>Confirm your email address <strong>${input.unconfirmedEmail}</strong> with the link we sent to it: an unconfirmed account can be used for three days after sign-up only.</span>
  <form method="post" action="/users/confirmation" class="inline"><input type="hidden" name="authenticity_token" value="${input.csrfToken ?? ''}"><input type="hidden" name="email" value="${input.unconfirmedEmail}"><button type="submit" class="secondary">Resend confirmation e-mail</button></form>
</div>`;
}

function topBar(input: LayoutInput): Html {
  // A visitor's search looks through Explore (GitLab's `name` filter): the landing page needs a sign-in.
  const [action, field] = input.user ? ['/', 'search'] : ['/explore/projects', 'name'];
  const search = html`<form class="top-search" method="get" action="${action}" role="search"><label class="visually-hidden" for="top-search">Search projects</label><input id="top-search" type="search" name="${field}" placeholder="Search projects" data-shortcut="s /" data-shortcut-label="Focus the search box"></form>`;
  if (!input.user) return html`<nav class="top-nav" aria-label="Main"><a href="/explore">Explore</a>${search}${shortcutsButton()}<a href="/users/sign_in">Sign in</a></nav>`;
  const user = input.user;
  return html`<nav class="top-nav" aria-label="Main">
    <a data-shortcut="P" data-shortcut-label="Go to your projects" href="/">Projects</a>
    <a data-shortcut="A" data-shortcut-label="Go to your activity" href="/dashboard/activity">Activity</a>
    <a href="/explore">Explore</a>
    <a data-shortcut="I" data-shortcut-label="Go to the issues assigned to you" href="/dashboard/issues">Issues</a>
    <a data-shortcut="M" data-shortcut-label="Go to the merge requests assigned to you" href="/dashboard/merge_requests">Merge requests</a>
    ${input.todosCount === undefined ? '' : html`<a data-shortcut="T" data-shortcut-label="Go to your To-Do List" href="/dashboard/todos">To-Do List <span id="todos-count" class="todos-count">${input.todosCount >= 100 ? '99+' : String(input.todosCount)}</span></a>`}
    <a href="/projects/new">New project</a>
    <a href="/groups/new">New group</a>
    ${search}
    ${canOnInstance(user, 'admin_all_resources') ? html`<a href="/admin">Admin</a>` : ''}
    <details class="user-menu"><summary>${input.avatarUrl ? html`<img class="user-avatar" src="${input.avatarUrl}" alt="" width="24" height="24">` : ''}${user.name} (@${user.username})</summary>
      <ul>
        <li><a href="/${user.username}">Your profile</a></li>
        <li><a data-shortcut="G" data-shortcut-label="Go to your groups" href="/dashboard/groups">Your groups</a></li>
        <li><a data-shortcut="L" data-shortcut-label="Go to your milestones" href="/dashboard/milestones">Your milestones</a></li>
        <li><a data-shortcut="S" data-shortcut-label="Go to your snippets" href="/dashboard/snippets">Your snippets</a></li>
        <li><a data-shortcut="R" data-shortcut-label="Go to the merge requests waiting for your review" href="/dashboard/merge_requests?reviewer_username=${user.username}">Review requests</a></li>
        <li><a href="/profile">Edit profile</a></li>
        <li><a href="/profile/password/edit">Password</a></li>
        <li><a href="/profile/preferences">Preferences</a></li>
        <li><a href="/profile/active_sessions">Active sessions</a></li>
        <li><a href="/profile/notifications">Notifications</a></li>
        <li><a href="/profile/personal_access_tokens">Access tokens</a></li>
        <li><a href="/profile/keys">SSH Keys</a></li>
        <li><a href="/profile/gpg_keys">GPG Keys</a></li>
        <li><a href="/profile/applications">Applications</a></li>
        <li><a href="/profile/two_factor_auth">Two-factor authentication</a></li>
        <li>${shortcutsButton()}</li>
        <li><form method="post" action="/users/sign_out" class="inline">
          <input type="hidden" name="authenticity_token" value="${input.csrfToken ?? ''}">
          <button type="submit" class="link">Sign out</button>
        </form></li>
      </ul>
    </details>
  </nav>`;
}

/**
 * htmx under the CSP (script-src 'self', style-src 'self'): no eval (`hx-on`, `js:` values), no
 * inline indicator styles, no scripts run from swapped-in markup; requests only to Kiln itself. Its
 * POSTs carry the session's CSRF token in the header page-route.ts accepts (`hx-headers` on <body>).
 */
const HTMX_CONFIG = html`<meta name="htmx-config" content="${JSON.stringify({ allowEval: false, includeIndicatorStyles: false, allowScriptTags: false, selfRequestsOnly: true, historyCacheSize: 0 })}">`;

export function layout(input: LayoutInput): Html {
  return html`<!doctype html>
<html lang="en"${input.theme === 'light' || input.theme === 'dark' ? html` class="theme-${input.theme}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · Kiln</title>
<link rel="stylesheet" href="/-/assets/kiln.css">
${HTMX_CONFIG}
<script src="/-/assets/htmx.min.js" defer></script>
<script src="/-/assets/kiln.js" defer></script>
${(input.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`)}
</head>
<body${input.csrfToken ? html` hx-headers="${JSON.stringify({ 'X-CSRF-Token': input.csrfToken })}"` : ''}>
${impersonationBanner(input)}
${confirmationBanner(input)}
${input.broadcasts?.banners ?? ''}
<header><a class="brand" href="/">Kiln</a>${topBar(input)}</header>
<div class="${input.sidebar ? 'with-sidebar' : 'plain'}">
${input.sidebar ?? ''}
<main>
${input.flash ? html`<div class="flash" role="status">${input.flash}</div>` : ''}
${input.heading ?? html`<h1>${input.title}</h1>`}
${input.body}
</main>
</div>
${input.broadcasts?.notifications ?? ''}
${SHORTCUTS_DIALOG}
</body>
</html>`;
}

export const STYLESHEET = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1f1f1f;background:#fafafa}
header{display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.5rem;background:#292961;color:#fff}
header a,header summary{color:#fff;text-decoration:none}.brand{font-weight:700;font-size:1.1rem}
.top-nav{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}.todos-count{display:inline-block;padding:0 .4rem;border-radius:8px;background:#fff;color:#292961;font-size:.85rem;font-weight:600}.who{opacity:.8}
main{max-width:980px;margin:1.5rem auto;padding:0 1.5rem;flex:1;min-width:0}
.with-sidebar{display:flex;align-items:flex-start}.sidebar{width:220px;flex:none;background:#f0f0f5;min-height:calc(100vh - 3rem);padding:1rem 0;border-right:1px solid #ddd}
.sidebar .context{display:block;padding:.2rem 1rem .8rem;font-weight:700;color:#1f1f1f;text-decoration:none;overflow-wrap:anywhere}
.sidebar ul{list-style:none;margin:0;padding:0}.sidebar li a{display:block;padding:.3rem 1rem;color:#333;text-decoration:none}.sidebar li a[aria-current=page]{background:#dcdcf0;font-weight:600}.sidebar li li a{padding-left:2rem;font-size:.92rem}
.user-menu{position:relative}.user-menu summary{cursor:pointer;opacity:.9}.profile-avatar{border-radius:50%;object-fit:cover;vertical-align:middle;margin-right:.4rem}.user-menu .user-avatar{width:24px;height:24px;border-radius:50%;object-fit:cover;vertical-align:middle;margin-right:.35rem}.user-menu ul{position:absolute;right:0;z-index:5;list-style:none;margin:.3rem 0 0;padding:.4rem 0;background:#fff;border:1px solid #ccc;border-radius:4px;min-width:14rem}
.user-menu li a,.user-menu li button.link{display:block;padding:.3rem .8rem;color:#1f1f1f;text-decoration:none}
.top-search input{padding:.25rem .5rem;border-radius:4px;border:1px solid #555;min-width:12rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.markdown img{max-width:100%}.markdown blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#555}
.note{background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:.6rem 1rem;margin:.6rem 0}.note .meta{font-size:.88rem;color:#555}
.state-open{background:#d9f2e3;color:#0d532a}.state-closed{background:#e1e6f7;color:#2b3d8a}.confidential{background:#fbe6c5;color:#6b3c00}
.actions{display:flex;gap:.6rem;flex-wrap:wrap;align-items:center;margin:1rem 0}.awards{gap:.3rem}.award[aria-pressed=true]{border-width:2px;font-weight:700}.empty{padding:2rem;text-align:center;background:#fff;border:1px dashed #ccc;border-radius:4px}
.pagination{display:flex;gap:1rem;margin:1rem 0}.diff-pages{flex-wrap:wrap;gap:.5rem;align-items:baseline}.clone{display:flex;gap:.4rem;align-items:center}.project-badges{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;padding:0;margin:.5rem 0}.clone input{max-width:30rem}
.live-status{font-size:.85rem;color:#555}.sidebar-heading{display:block;padding:.6rem 1rem .2rem}
.notification-row{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;padding:.45rem 0;border-bottom:1px solid #e5e5e5}.notification-row .source-name{flex:1 1 16rem;font-weight:600;overflow-wrap:anywhere}.notification-row select{width:auto}.notification-row details{flex-basis:100%}.notification-row fieldset label{display:inline-block;margin:.1rem 1rem .1rem 0;font-weight:400}
fieldset{max-width:36rem;border:1px solid #ccc;border-radius:4px;margin:1rem 0}form.stacked fieldset label{display:inline;margin:0}fieldset p{margin:.3rem 0}
a{color:#1f5fae}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
.flash{padding:.6rem 1rem;background:#e9f3ff;border:1px solid #9cc7f5;border-radius:4px;margin-bottom:1rem}
.error{padding:.6rem 1rem;background:#fdecea;border:1px solid #f5a39c;border-radius:4px;margin-bottom:1rem}
.field-error{color:#a8120d;font-weight:600;margin:.2rem 0}[aria-invalid=true]{border-color:#a8120d!important}
form.stacked label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=text],input[type=password],input[type=email],input[type=url],input[type=date],textarea,select{width:100%;max-width:36rem;padding:.4rem;border:1px solid #bbb;border-radius:4px;font:inherit}
textarea{min-height:8rem;font-family:ui-monospace,monospace}
button,.button{display:inline-block;padding:.4rem .9rem;border:1px solid #1f75cb;background:#1f75cb;color:#fff;border-radius:4px;font:inherit;cursor:pointer;text-decoration:none}
button.secondary{background:#fff;color:#1f75cb}button.danger{background:#dd2b0e;border-color:#dd2b0e}
button.link{background:none;border:none;color:inherit;padding:0;text-decoration:underline}
form.inline{display:inline}
form.stack label{display:block;margin:.5rem 0}form.stack label>input:not([type=checkbox]){display:block;width:100%;max-width:40rem;box-sizing:border-box}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
code,pre{font-family:ui-monospace,monospace;background:#f0f0f0;padding:.1rem .3rem;border-radius:3px}pre{padding:.8rem;overflow:auto}
.tabs{display:flex;gap:1rem;border-bottom:1px solid #ddd;margin-bottom:1rem}.tabs a{padding:.4rem 0;text-decoration:none;color:#555}.tabs a.active{border-bottom:2px solid #1f75cb;color:#1f1f1f}
.wrap-anywhere{overflow-wrap:anywhere}ul.plain{list-style:none;padding:0}ul.plain>li{padding:.6rem 0;border-bottom:1px solid #e5e5e5}ul.plain h3{margin:0 0 .3rem;font-size:1rem}ul.plain p{margin:.2rem 0}
.admin-counts{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.8rem}.admin-counts li{background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:.8rem}.admin-counts .count{display:block;font-size:1.6rem;font-weight:700}
.explore-filter{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}.explore-filter input[type=search]{flex:1 1 12rem;max-width:24rem;padding:.4rem;border:1px solid #bbb;border-radius:4px;font:inherit}.explore-filter select{width:auto}
.muted{color:#666}.badge{display:inline-block;padding:0 .4rem;border-radius:8px;background:#eee;font-size:.85rem}
`;
