// The admin area's own rules (a user's facts, the delete forms) and the impersonation banner every
// page shows while an administrator acts as someone else. Served within /-/assets/kiln.css.
export const ADMIN_STYLES = `
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.3rem 1rem;background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:.8rem 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
.danger-zone{border:1px solid #f5a39c;border-radius:4px;padding:.2rem 1rem .6rem;margin:1rem 0;background:#fff}.danger-zone h3{margin:.6rem 0 .3rem;font-size:1rem}
.settings-section{border-bottom:1px solid #e5e5e5;padding-bottom:1rem}.settings-section .hint{display:block;color:#595959;font-size:.9rem;margin:.2rem 0}.settings-section p.setting .hint{margin-left:1.6rem}
.impersonation-banner{display:flex;flex-wrap:wrap;gap:.6rem 1rem;align-items:center;justify-content:center;padding:.5rem 1rem;background:#fdf1dd;color:#1f1f1f;border-bottom:1px solid #e9be74}
@media (prefers-color-scheme: dark){
dl.facts,.danger-zone{background:#161a21;border-color:#30363d}.settings-section{border-color:#30363d}.settings-section .hint{color:#a8b1bb}.danger-zone{border-color:#8e2a1e}
.impersonation-banner{background:#3d2c08;color:#f5e7c8;border-color:#8a6410}
}
`;
