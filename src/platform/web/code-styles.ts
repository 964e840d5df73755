// Styles of code on pages (files with line numbers, blame, diffs, the ref switcher) and the dark
// theme of every page, chosen by the visitor's system (`prefers-color-scheme`). Served within
// /-/assets/kiln.css (assets.ts) after the base stylesheet, with highlight.js's token colours.

export const CODE_STYLES = `
.file-holder{border:1px solid #ddd;border-radius:4px;margin:1rem 0;background:#fff;overflow:hidden}
.file-header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.5rem .8rem;background:#f5f5f8;border-bottom:1px solid #ddd}
.file-header .file-title{font-weight:600;overflow-wrap:anywhere}.file-header .file-actions{display:flex;gap:.4rem;flex-wrap:wrap}
.button.small,button.small{padding:.15rem .55rem;font-size:.88rem}.button.secondary{background:#fff;color:#1f5fae}
.code-scroll{overflow-x:auto;position:relative}
table.code{width:100%;border-collapse:collapse;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;background:transparent}
table.code td{padding:0 .6rem;border:0;vertical-align:top;white-space:pre}
table.code td.num{width:1%;min-width:3.2rem;text-align:right;color:#5c5c66;user-select:none;border-right:1px solid #e5e5e5}
table.code td.num a{color:inherit;text-decoration:none}table.code td.num a:hover{text-decoration:underline}
table.code tr:target td,table.code tr.selected td,table.code td.num:target,table.code td.num:target+td{background:#fff8c5}
table.code td.line{width:auto}
.blame-table td.blame-commit{width:18rem;max-width:18rem;white-space:normal;font:12px/1.4 system-ui,sans-serif;border-right:1px solid #e5e5e5;border-top:1px solid #e5e5e5}
.blame-table td.blame-commit .age{display:inline-block;width:.35rem;height:1rem;vertical-align:middle;margin-right:.35rem;border-radius:2px}
.blame-table tr.blame-start td{border-top:1px solid #e5e5e5}
.age-0{background:#f97316}.age-1{background:#fb923c}.age-2{background:#fdba74}.age-3{background:#cbd5e1}.age-4{background:#94a3b8}.age-5{background:#64748b}
.diff-file{border:1px solid #ddd;border-radius:4px;margin:1rem 0;background:#fff}
.diff-file>details>summary{list-style:none;cursor:pointer;display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;padding:.5rem .8rem;background:#f5f5f8;border-bottom:1px solid #ddd}
.diff-file>details>summary::-webkit-details-marker{display:none}.diff-file>details>summary::before{content:'▾';color:#5c5c66}.diff-file>details:not([open])>summary::before{content:'▸'}
.diff-file .diff-path{font-weight:600;overflow-wrap:anywhere;font-family:ui-monospace,monospace}
.diff-stats .added{color:#116329}.diff-stats .removed{color:#a40e26}
.diff-notice{padding:.8rem;color:#444}.diff-file .file-actions{margin:.3rem .8rem;font-size:.9rem}.diff-summary{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}.diff-mode{margin-left:auto}
table.diff td.num{min-width:2.8rem}
table.diff tr.add td.line,table.diff td.line.add{background:#e6ffec}table.diff tr.add td.num,table.diff td.num.add{background:#ccffd8}
table.diff tr.del td.line,table.diff td.line.del{background:#ffebe9}table.diff tr.del td.num,table.diff td.num.del{background:#ffd7d5}
table.diff td.line.empty,table.diff td.num.empty{background:#f5f5f8}
table.diff tr.hunk td{background:#eef3fb;color:#3d4f6d;padding:.15rem .6rem}
table.diff tr.expander td{background:#f5f7fb;padding:.1rem .6rem;font-family:system-ui,sans-serif;white-space:normal}
table.diff .sign{user-select:none;display:inline-block;width:1ch;margin-right:.4rem;color:#5c5c66}
table.diff.parallel td.line{width:50%}
table.diff tr.slot td{white-space:normal;font:inherit;font-family:system-ui,sans-serif;background:#fafafa;padding:.4rem .8rem}
table.diff .comment-button{opacity:0;margin-left:.2rem;padding:0 .3rem;font-size:.8rem;line-height:1.2}
table.diff tr:hover .comment-button,table.diff .comment-button:focus{opacity:1}
.ref-bar{display:flex;flex-wrap:wrap;gap:.6rem;align-items:center;margin:0 0 1rem}
.ref-switcher{position:relative}.ref-switcher>summary{position:relative;cursor:pointer;list-style:none;padding:.3rem .7rem;border:1px solid #bbb;border-radius:4px;background:#fff;max-width:20rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.ref-switcher>summary::-webkit-details-marker{display:none}
.ref-switcher .ref-menu{position:absolute;z-index:6;left:0;top:2.2rem;width:20rem;max-width:90vw;background:#fff;border:1px solid #ccc;border-radius:4px;padding:.5rem;box-shadow:0 4px 12px rgba(0,0,0,.12)}
.ref-menu input[type=search]{width:100%;padding:.3rem;border:1px solid #bbb;border-radius:4px;font:inherit}
.ref-menu ul{list-style:none;margin:.3rem 0;padding:0;max-height:18rem;overflow:auto}.ref-menu li a{display:block;padding:.15rem .3rem;overflow-wrap:anywhere}
.ref-menu h3{font-size:.8rem;margin:.4rem 0 .1rem;color:#555;text-transform:uppercase}
.breadcrumbs{overflow-wrap:anywhere}
.commit-list{list-style:none;margin:0;padding:0;background:#fff;border:1px solid #e5e5e5;border-radius:4px}
.commit-list li{display:flex;gap:.7rem;align-items:flex-start;padding:.55rem .8rem;border-bottom:1px solid #e5e5e5}
.commit-list li:last-child{border-bottom:0}.commit-list .commit-main{flex:1;min-width:0;overflow-wrap:anywhere}.commit-list .commit-title{font-weight:600}
.commit-day{margin:1rem 0 .3rem;font-size:.95rem;color:#444}
.avatar{width:32px;height:32px;border-radius:50%;flex:none;background:#dcdcf0;display:inline-flex;align-items:center;justify-content:center;font-weight:700;color:#292961;font-size:.85rem}
.sha{font-family:ui-monospace,monospace}
.badge.verified{background:#d9f2e3;color:#0d532a}.status{font-size:.8rem;padding:0 .4rem;border-radius:8px}.status-success{background:#d9f2e3;color:#0d532a}.status-failed{background:#fdecea;color:#8c1d12}.status-running,.status-pending{background:#e1e6f7;color:#2b3d8a}.status-canceled,.status-skipped{background:#eee;color:#444}
.tree-table td.last-commit{color:#444;overflow-wrap:anywhere}.tree-table td.when{white-space:nowrap;color:#555}
.ahead-behind{display:inline-flex;gap:.3rem;font-size:.85rem}.ahead-behind span{padding:0 .35rem;border-radius:8px;background:#eee}
.chart svg{max-width:100%;height:auto}.chart .bar{fill:#1f75cb}.chart text{fill:#333;font-size:12px}
.markdown-file{padding:1rem 1.5rem}.image-file{padding:1rem;text-align:center}.image-file img{max-width:100%}
.find-file input{width:100%;max-width:36rem}
.menu{position:relative;display:inline-block}.menu>summary{list-style:none;cursor:pointer}.menu>summary::-webkit-details-marker{display:none}
.menu-list{position:absolute;z-index:6;right:0;list-style:none;margin:.2rem 0 0;padding:.3rem 0;background:#fff;border:1px solid #ccc;border-radius:4px;min-width:11rem;box-shadow:0 4px 12px rgba(0,0,0,.12)}
.menu-list li a,.menu-list li.muted{display:block;padding:.2rem .8rem}.ref-actions{display:flex;flex-wrap:wrap;gap:.4rem;margin-left:auto}
.file-matches{list-style:none;padding:0}.file-matches li{padding:.15rem 0;overflow-wrap:anywhere}
.state-merged{background:#e6dcf7;color:#4b2a8f}.merge-widget{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.4rem 1rem;margin:1rem 0}.merge-widget .merged{font-weight:600}
.mr-facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}.mr-facts dt{font-weight:600}.mr-facts dd{margin:0;overflow-wrap:anywhere}
.thread{border-left:3px solid #ccc;padding-left:.6rem;margin:.8rem 0}.thread.resolved{border-color:#3aa76d}.thread-where{margin:.2rem 0;overflow-wrap:anywhere}.version-picker select{width:auto;max-width:100%}
.thread .markdown pre,.suggestion-diff{white-space:pre-wrap;overflow-wrap:anywhere}
@media (max-width:700px){.with-sidebar{display:block}.sidebar{width:auto;min-height:0;border-right:0;border-bottom:1px solid #ddd}.blame-table td.blame-commit{width:9rem;max-width:9rem}main{padding:0 .7rem}}
@media (prefers-color-scheme: dark){
:root{color-scheme:dark}
body{color:#d8dae0;background:#0f1117}
header{background:#1d1d45}
a{color:#6cb6ff}
.sidebar{background:#15171e;border-color:#30363d}.sidebar .context,.sidebar li a{color:#d8dae0}.sidebar li a[aria-current=page]{background:#2a2d5a}
.user-menu ul{background:#161a21;border-color:#30363d}.user-menu li a,.user-menu li button.link{color:#e6e6e6}
.muted,.live-status,.tabs a,.commit-day,.tree-table td.last-commit,.tree-table td.when,.diff-notice{color:#a5adba}.tabs{border-color:#30363d}.tabs a.active{color:#e6e6e6}
.badge,.ahead-behind span{background:#2d333b;color:#e6edf3}
code,pre{background:#1c2028}
table{background:#161a21}th,td{border-color:#30363d}
input[type=text],input[type=password],input[type=email],input[type=url],input[type=date],input[type=search],textarea,select{background:#0d1117;color:#e6e6e6;border-color:#59616b}
button.secondary,.button.secondary{background:#0f1117;color:#6cb6ff}
.flash{background:#10263f;border-color:#1f5fae}.error{background:#3a1714;border-color:#8c2b22}
.admin-counts li{background:#161a21;border-color:#30363d}.field-error{color:#ffb4a9}[aria-invalid=true]{border-color:#ff8a7a!important}
.empty,.note,.commit-list,.file-holder,.diff-file{background:#161a21;border-color:#30363d}.commit-list li{border-color:#30363d}
.state-open,.status-success,.badge.verified{background:#0f3a22;color:#8fe3b0}.state-closed,.status-running,.status-pending{background:#1c2650;color:#b5c3ff}.confidential{background:#4a2c00;color:#ffd28a}.status-failed{background:#3a1714;color:#ffb4a9}.status-canceled,.status-skipped{background:#2d333b;color:#d0d7de}
.file-header,.diff-file>details>summary{background:#1c2028;border-color:#30363d}
table.code td.num{color:#9ba3af;border-color:#30363d}table.code tr:target td,table.code tr.selected td,table.code td.num:target,table.code td.num:target+td{background:#3b3415}
.blame-table td.blame-commit,.blame-table tr.blame-start td{border-color:#30363d}
table.diff tr.add td.line,table.diff td.line.add{background:#12261e}table.diff tr.add td.num,table.diff td.num.add{background:#1a3a28}
table.diff tr.del td.line,table.diff td.line.del{background:#2d1619}table.diff tr.del td.num,table.diff td.num.del{background:#47202a}
table.diff td.line.empty,table.diff td.num.empty,table.diff tr.expander td,table.diff tr.slot td{background:#1c2028}
table.diff tr.hunk td{background:#172238;color:#a8bbd8}table.diff .sign{color:#9ba3af}
.diff-stats .added{color:#7ee2a8}.diff-stats .removed{color:#ff9d9d}
.ref-switcher>summary,.ref-switcher .ref-menu,.menu-list{background:#161a21;border-color:#59616b}.ref-menu h3{color:#a5adba}
.avatar{background:#2a2d5a;color:#d8dae0}
/* A button link keeps its white text over the scoped dark link colour (themes.ts raises that rule). */
.button{color:#fff}
.state-merged{background:#2f2150;color:#d6c6ff}.note .meta{color:#a5adba}.merge-widget{background:#161a21;border-color:#30363d}.thread{border-color:#59616b}.thread.resolved{border-color:#3fb950}
.chart .bar{fill:#4a9af0}.chart text{fill:#d8dae0}
}
`;
