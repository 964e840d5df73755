// The admin area's own rules (a user's facts, the delete forms), the impersonation banner every
// page shows while an administrator acts as someone else, and the one asking to confirm an address. Served within /-/assets/kiln.css.
export const ADMIN_STYLES = `
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.3rem 1rem;background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:.8rem 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
.danger-zone{border:1px solid #f5a39c;border-radius:4px;padding:.2rem 1rem .6rem;margin:1rem 0;background:#fff}.danger-zone h3{margin:.6rem 0 .3rem;font-size:1rem}
.settings-section{border-bottom:1px solid #e5e5e5;padding-bottom:1rem}.settings-section .hint{display:block;color:#595959;font-size:.9rem;margin:.2rem 0}.settings-section p.setting .hint{margin-left:1.6rem}
.impersonation-banner,.confirmation-banner{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center;justify-content:center;padding:.5rem 1rem;background:#fdf1dd;color:#1f1f1f;border-bottom:1px solid #e9be74}
.broadcast-message{display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:center;justify-content:center;padding:.5rem 1rem;overflow-wrap:anywhere}
.broadcast-message .broadcast-text{flex:1 1 16rem;min-width:0}.broadcast-message .broadcast-text>:first-child{margin-top:0}.broadcast-message .broadcast-text>:last-child{margin-bottom:0}
.broadcast-message a{color:inherit;text-decoration:underline}.broadcast-message code,.broadcast-message pre{background:transparent;color:inherit;border:1px solid currentColor}
.broadcast-message .broadcast-dismiss{background:transparent;color:inherit;border:1px solid currentColor;padding:.15rem .6rem}
.broadcast-notifications{position:fixed;left:1rem;bottom:1rem;z-index:10;max-width:min(24rem,calc(100vw - 2rem));display:flex;flex-direction:column;gap:.5rem}.broadcast-notification{border-radius:4px;box-shadow:0 2px 8px rgba(0,0,0,.3)}
.broadcast-preview{border-radius:4px;margin-bottom:.4rem}
.broadcast-theme-indigo{background:#393982;color:#fff}.broadcast-theme-light-indigo{background:#e1e1f7;color:#1f1f4d}
.broadcast-theme-blue{background:#0b5cad;color:#fff}.broadcast-theme-light-blue{background:#d9e9fb;color:#0b2a4a}
.broadcast-theme-green{background:#1d6b38;color:#fff}.broadcast-theme-light-green{background:#dbf2df;color:#0d3b1c}
.broadcast-theme-red{background:#a3241b;color:#fff}.broadcast-theme-light-red{background:#fbe2df;color:#5c130d}
.broadcast-theme-dark{background:#1f1f1f;color:#fff}.broadcast-theme-light{background:#f2f2f2;color:#1f1f1f}
@media (prefers-color-scheme: dark){
dl.facts,.danger-zone{background:#161a21;border-color:#30363d}.settings-section{border-color:#30363d}.settings-section .hint{color:#a8b1bb}.danger-zone{border-color:#8e2a1e}
.impersonation-banner,.confirmation-banner{background:#3d2c08;color:#f5e7c8;border-color:#8a6410}
.broadcast-message a,.broadcast-message code,.broadcast-message pre{color:inherit;background:transparent}
}
`;
