// The keyboard shortcuts dialog: a centred box no wider than the screen (390 px phones included),
// scrolling inside when its list is long; the dark theme's colours in their own block (themes.ts).
export const SHORTCUT_STYLES = `
.shortcuts-dialog{width:min(36rem,calc(100vw - 2rem));max-height:min(40rem,calc(100vh - 2rem));overflow:auto;padding:1rem 1.2rem;border:1px solid #ccc;border-radius:6px;background:#fff;color:#1f1f1f;box-sizing:border-box}
.shortcuts-dialog::backdrop{background:rgba(0,0,0,.45)}
.shortcuts-dialog h2{margin-top:0}.shortcuts-dialog form{margin-top:1rem;text-align:right}
.shortcut-table{width:100%;border-collapse:collapse;margin:.8rem 0}.shortcut-table caption{text-align:left;font-weight:700;padding:.3rem 0}
.shortcut-table th,.shortcut-table td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid #ddd;vertical-align:top}.shortcut-table td:first-child{white-space:nowrap;width:1%}
kbd{display:inline-block;min-width:1.2em;padding:0 .3em;border:1px solid #999;border-bottom-width:2px;border-radius:3px;background:#f6f6f8;color:#1f1f1f;font:.85em/1.5 ui-monospace,monospace;text-align:center}
@media (max-width:480px){.shortcut-table td:first-child{white-space:normal}}
@media (prefers-color-scheme: dark){
.shortcuts-dialog{background:#161a21;color:#d8dae0;border-color:#30363d}
.shortcut-table th,.shortcut-table td{border-color:#30363d}
kbd{background:#1c2028;color:#e6e6e6;border-color:#59616b}
}
`;
