// The CI pages' own rules: status badges and icons of every CI status, the stages of a pipeline, the
// job log (monospace, wrapped, its sections collapsible) and the classes ansi_up gives ANSI colours,
// chosen for contrast on the log's light and dark backgrounds. Served within /-/assets/kiln.css.
export const CI_STYLES = `
.status-created,.status-waiting_for_resource,.status-preparing,.status-scheduled{background:#eee;color:#444}.status-manual{background:#fbe6c5;color:#6b3c00}
.ci-badge{white-space:nowrap;font-weight:600}
.ci-icon{position:relative;display:inline-flex;align-items:center;justify-content:center;width:1.5rem;height:1.5rem;margin:0 .15rem .15rem 0;border-radius:50%;font-size:.85rem;text-decoration:none;font-weight:700}
pre.commands{white-space:pre-wrap;overflow-wrap:anywhere}td.stages{white-space:nowrap}.table-scroll{overflow-x:auto;position:relative}
form.filters{display:flex;flex-wrap:wrap;gap:.4rem .6rem;align-items:center;margin:0 0 1rem}form.filters select,form.filters input{width:auto;max-width:14rem}
.pipeline-graph{display:flex;flex-wrap:wrap;gap:1rem}.pipeline-stage{flex:1 1 12rem;background:#fff;border:1px solid #e5e5e5;border-radius:4px;padding:0 .8rem .4rem}.pipeline-stage h2{font-size:1rem;margin:.6rem 0}
.group-by a.active{font-weight:700}.exposed-artifacts{margin:0 0 1rem}.exposed-artifacts li{overflow-wrap:anywhere}
.needs-graph-scroll{overflow-x:auto;max-width:100%;border:1px solid #e5e5e5;border-radius:4px;background:#fafafa}.needs-graph{display:block}
.needs-graph rect{fill:#fff;stroke:#8c8c8c}.needs-graph text{fill:#1f1f1f;font-family:inherit}.needs-edge{stroke:#6e6e6e}.needs-graph circle{fill:#737373}
.needs-node:focus rect,.needs-node:hover rect{stroke:#0b57d0;stroke-width:3}.needs-node.status-success circle{fill:#1a7f37}.needs-node.status-failed circle{fill:#c91c00}.needs-node.status-running circle,.needs-node.status-pending circle{fill:#0b57d0}.needs-node.status-manual circle{fill:#9e5400}
.pipeline-job{overflow-wrap:anywhere}.pipeline-job form{margin-left:.3rem}
.variable-row{display:flex;flex-wrap:wrap;gap:.4rem;margin:.3rem 0}.variable-row select{width:auto}.variable-row input{flex:1 1 10rem;width:auto}
.job-log{font:13px/1.45 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;background:#fbfbfb;color:#1f1f1f;border:1px solid #d0d0d0;border-radius:4px;padding:.6rem .8rem;max-height:80vh;overflow:auto}
.log-section>summary{cursor:pointer;list-style-position:outside;margin-left:1rem}.log-section>summary:hover{background:#eef0f5}.log-duration:empty{display:none}.log-duration{float:right;margin-left:1rem;padding:0 .4rem;border-radius:8px;background:#e8e8e8;color:#333}
.ansi-bold{font-weight:700}.ansi-faint{opacity:.75}.ansi-italic{font-style:italic}.ansi-underline{text-decoration:underline}
.ansi-black-fg,.ansi-bright-black-fg,.ansi-white-fg{color:#595959}.ansi-bright-white-fg{color:#3d3d3d}
.ansi-red-fg{color:#b3261e}.ansi-green-fg{color:#1a7f37}.ansi-yellow-fg{color:#7a5c00}.ansi-blue-fg{color:#0b57d0}.ansi-magenta-fg{color:#8e24aa}.ansi-cyan-fg{color:#00707a}
.ansi-bright-red-fg{color:#a11d14}.ansi-bright-green-fg{color:#146c2e}.ansi-bright-yellow-fg{color:#6b5000}.ansi-bright-blue-fg{color:#0842a0}.ansi-bright-magenta-fg{color:#7b1fa2}.ansi-bright-cyan-fg{color:#006064}
.ansi-black-bg,.ansi-bright-black-bg{background:#d6d6d6}.ansi-white-bg,.ansi-bright-white-bg{background:#f4f4f4}.ansi-red-bg,.ansi-bright-red-bg{background:#fde2e1}.ansi-green-bg,.ansi-bright-green-bg{background:#dcf5e3}
.ansi-yellow-bg,.ansi-bright-yellow-bg{background:#fcf1c9}.ansi-blue-bg,.ansi-bright-blue-bg{background:#dde8fb}.ansi-magenta-bg,.ansi-bright-magenta-bg{background:#f3e0f7}.ansi-cyan-bg,.ansi-bright-cyan-bg{background:#d8f3f5}
@media (prefers-color-scheme: dark){
.status-created,.status-waiting_for_resource,.status-preparing,.status-scheduled{background:#2d333b;color:#d0d7de}.status-manual{background:#4a2c00;color:#ffd28a}
.pipeline-stage{background:#161a21;border-color:#30363d}
.needs-graph-scroll{background:#0d1117;border-color:#30363d}.needs-graph rect{fill:#161a21;stroke:#8b949e}.needs-graph text{fill:#e6edf3}.needs-edge{stroke:#9ea7b3}.needs-graph circle{fill:#9ea7b3}
.needs-node:focus rect,.needs-node:hover rect{stroke:#79c0ff}.needs-node.status-success circle{fill:#3fb950}.needs-node.status-failed circle{fill:#f85149}.needs-node.status-running circle,.needs-node.status-pending circle{fill:#58a6ff}.needs-node.status-manual circle{fill:#d29922}
.job-log{background:#0d1117;color:#e6edf3;border-color:#30363d}.log-section>summary:hover{background:#1c2028}.log-duration{background:#2d333b;color:#e6edf3}
.ansi-black-fg,.ansi-bright-black-fg{color:#9ea7b3}.ansi-white-fg{color:#e6edf3}.ansi-bright-white-fg{color:#fff}
.ansi-red-fg{color:#ff7b72}.ansi-green-fg{color:#7ee787}.ansi-yellow-fg{color:#e3b341}.ansi-blue-fg{color:#79c0ff}.ansi-magenta-fg{color:#d2a8ff}.ansi-cyan-fg{color:#76e3ea}
.ansi-bright-red-fg{color:#ffa198}.ansi-bright-green-fg{color:#aff5b4}.ansi-bright-yellow-fg{color:#f8e3a1}.ansi-bright-blue-fg{color:#a5d6ff}.ansi-bright-magenta-fg{color:#e2c5ff}.ansi-bright-cyan-fg{color:#b3f0ff}
.ansi-black-bg,.ansi-bright-black-bg{background:#30363d}.ansi-white-bg,.ansi-bright-white-bg{background:#484f58}.ansi-red-bg,.ansi-bright-red-bg{background:#5a1e1b}.ansi-green-bg,.ansi-bright-green-bg{background:#12361f}
.ansi-yellow-bg,.ansi-bright-yellow-bg{background:#3d2c08}.ansi-blue-bg,.ansi-bright-blue-bg{background:#132a52}.ansi-magenta-bg,.ansi-bright-magenta-bg{background:#3b1f4a}.ansi-cyan-bg,.ansi-bright-cyan-bg{background:#0e3a3e}
}
`;
