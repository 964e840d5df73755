// The page shell: header, navigation, flash message. Loads nothing from outside Kiln.
import type { AuthUser } from '../auth/principal.js';
import { canOnInstance } from '../auth/policies/policy.js';
import { html, type Html } from './html.js';

export interface LayoutInput {
  title: string;
  body: Html;
  user: AuthUser | null;
  csrfToken: string | null;
  flash?: string | null;
}

export function layout(input: LayoutInput): Html {
  const nav = input.user
    ? html`<nav class="top-nav">
        <a href="/">Projects</a>
        <a href="/profile/applications">Applications</a>
        <a href="/profile/personal_access_tokens">Access tokens</a>
        <a href="/profile/two_factor_auth">Two-factor authentication</a>
        <a href="/profile/notifications">Notifications</a>
        ${canOnInstance(input.user, 'admin_all_resources') ? html`<a href="/admin/repository_storages">Admin</a>` : ''}
        <span class="who">${input.user.name} (@${input.user.username})</span>
        <form method="post" action="/users/sign_out" class="inline">
          <input type="hidden" name="authenticity_token" value="${input.csrfToken ?? ''}">
          <button type="submit" class="link">Sign out</button>
        </form>
      </nav>`
    : html`<nav class="top-nav"><a href="/users/sign_in">Sign in</a></nav>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · Kiln</title>
<link rel="stylesheet" href="/-/assets/kiln.css">
</head>
<body>
<header><a class="brand" href="/">Kiln</a>${nav}</header>
<main>
${input.flash ? html`<div class="flash" role="status">${input.flash}</div>` : ''}
<h1>${input.title}</h1>
${input.body}
</main>
</body>
</html>`;
}

export const STYLESHEET = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1f1f1f;background:#fafafa}
header{display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.5rem;background:#292961;color:#fff}
header a{color:#fff;text-decoration:none}.brand{font-weight:700;font-size:1.1rem}
.top-nav{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}.who{opacity:.8}
main{max-width:980px;margin:1.5rem auto;padding:0 1.5rem}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}
.flash{padding:.6rem 1rem;background:#e9f3ff;border:1px solid #9cc7f5;border-radius:4px;margin-bottom:1rem}
.error{padding:.6rem 1rem;background:#fdecea;border:1px solid #f5a39c;border-radius:4px;margin-bottom:1rem}
form.stacked label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=text],input[type=password],input[type=email],input[type=url],input[type=date],textarea,select{width:100%;max-width:36rem;padding:.4rem;border:1px solid #bbb;border-radius:4px;font:inherit}
textarea{min-height:8rem;font-family:ui-monospace,monospace}
button,.button{display:inline-block;padding:.4rem .9rem;border:1px solid #1f75cb;background:#1f75cb;color:#fff;border-radius:4px;font:inherit;cursor:pointer;text-decoration:none}
button.secondary{background:#fff;color:#1f75cb}button.danger{background:#dd2b0e;border-color:#dd2b0e}
button.link{background:none;border:none;color:inherit;padding:0;text-decoration:underline}
form.inline{display:inline}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e5e5e5;vertical-align:top}
code,pre{font-family:ui-monospace,monospace;background:#f0f0f0;padding:.1rem .3rem;border-radius:3px}pre{padding:.8rem;overflow:auto}
.tabs{display:flex;gap:1rem;border-bottom:1px solid #ddd;margin-bottom:1rem}.tabs a{padding:.4rem 0;text-decoration:none;color:#555}.tabs a.active{border-bottom:2px solid #1f75cb;color:#1f1f1f}
.muted{color:#666}.badge{display:inline-block;padding:0 .4rem;border-radius:8px;background:#eee;font-size:.85rem}
`;
