// Styles of the planning pages (issue sidebar, timeline, task lists, labels and milestones), light
// then dark, appended to kiln.css by assets.ts. Label colours come as tiny SVG images: the CSP allows
// no inline styles.
export const PLANNING_STYLES = `
.issue-layout{display:grid;grid-template-columns:minmax(0,1fr) 17rem;gap:1.5rem;align-items:start}
.issue-sidebar{background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:.2rem .9rem .8rem}
.issue-sidebar section{border-bottom:1px solid #e5e5e5;padding:.5rem 0}.issue-sidebar section:last-child{border-bottom:0}
.issue-sidebar h2{font-size:.95rem;margin:.3rem 0}.issue-sidebar p{margin:.2rem 0}.issue-sidebar ul{list-style:none;margin:.2rem 0;padding:0}
.issue-sidebar details summary{cursor:pointer;color:#1f5fae;font-size:.9rem}.issue-sidebar form{margin:.4rem 0}.issue-sidebar select,.issue-sidebar input[type=date]{max-width:100%}
.issue-sidebar fieldset{margin:.3rem 0;padding:.3rem .5rem;max-height:14rem;overflow:auto}.issue-sidebar fieldset label{display:block;font-weight:400}
.label-chip{display:inline-flex;align-items:center;gap:.3rem;padding:0 .45rem;border:1px solid #ccc;border-radius:10px;font-size:.85rem;margin:0 .2rem .2rem 0;background:#fff;color:#1f1f1f;text-decoration:none}
.label-chip img{width:.7rem;height:.7rem;border-radius:50%}
button.small,.button.small{padding:.15rem .5rem;font-size:.85rem}
.note.system{background:none;border:0;padding:.2rem 1rem;margin:.2rem 0;font-size:.9rem;color:#444}.note.system .markdown p{display:inline;margin:0}
.note.system .meta{display:inline;margin-right:.3rem}
li.task-list-item{list-style:none}li.task-list-item input{margin:0 .35rem 0 -1.3rem}
.field-error{color:#a4160b;font-size:.9rem;margin:.2rem 0}[aria-invalid=true]{border-color:#dd2b0e}
.edit-link{margin-left:.5rem}.description-form .actions{margin:.3rem 0}
.progress{display:block;width:100%;max-width:24rem;height:.6rem}
.todo-list{list-style:none;margin:.5rem 0;padding:0}.todo-list li{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-start;border-bottom:1px solid #e5e5e5;padding:.5rem 0}
.issue-filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end;margin:.5rem 0}.issue-filters p{margin:.3rem 0;display:flex;flex-direction:column;gap:.15rem;max-width:100%}.issue-filters input,.issue-filters select{max-width:100%}
.issue-ref{overflow-wrap:anywhere}.todo-body{flex:1 1 18rem;min-width:0;overflow-wrap:anywhere}.todo-body p{margin:.15rem 0}.todo-filters{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center;margin:.6rem 0}
@media (max-width:800px){.issue-layout{grid-template-columns:minmax(0,1fr)}}
.wiki-content pre,.wiki-preview pre{white-space:pre-wrap;overflow-wrap:anywhere}.wiki-main{min-width:0;overflow-wrap:anywhere}.wiki-pages{list-style:none;padding:0}
.board{display:flex;gap:1rem;overflow-x:auto;align-items:flex-start;padding-bottom:.5rem}.board-list{flex:0 0 17rem;max-width:85vw;background:#f4f4f8;border:1px solid #e5e5e5;border-radius:4px;padding:.5rem}
.board-list h2{font-size:1rem;margin:.2rem 0 .5rem;display:flex;gap:.4rem;align-items:center}.board-list ul{list-style:none;margin:0;padding:0;min-height:2rem}
.board-card{background:#fff;border:1px solid #ddd;border-radius:4px;padding:.5rem;margin:0 0 .5rem;overflow-wrap:anywhere}.board-card[draggable]{cursor:grab}.board-card .card-labels{margin:.3rem 0}
.move-issue{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center;font-size:.85rem}.move-issue select{width:auto;max-width:10rem;padding:.15rem}.add-list select{width:auto}
#your-work td:first-child{overflow-wrap:anywhere}@media (max-width:600px){.wide-only{display:none}}
@media (prefers-color-scheme: dark){
.board-list{background:#0d1117;border-color:#30363d}.board-card{background:#161a21;border-color:#30363d}
.issue-sidebar,.label-chip{background:#161a21;border-color:#30363d;color:#d8dae0}.issue-sidebar section{border-color:#30363d}
a.button:not(.secondary){color:#fff}.todo-list li{border-color:#30363d}.issue-sidebar details summary{color:#6cb6ff}.note.system{background:none;color:#c3c8d0}.field-error{color:#ffb4a9}
}
`;
