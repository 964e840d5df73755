// Behaviour of code on pages, appended to /-/assets/kiln.js (assets.ts). Progressive enhancement:
// anchors and links work without it.
// - Line numbers of a file (`table.blob`): a click selects the line (`#L10`), a shift-click a range
//   (`#L10-20`, GitLab's form); the selection is shown when the page opens at such an address, and
//   a line on another page of a paged table (`data-lines-per-page`: blame) opens that page.
// - Line numbers of a diff (`table.diff`): a click marks the start of a range, a shift-click its end;
//   the file's hidden `line_range_start` input then holds the first line's code, which the diff
//   view's comment buttons send (repositories/diff-view/index.ts).
// The keys of these pages (`y` permalink, `t` find file) are the keyboard shortcuts' (shortcuts/script.ts).
export const CODE_SCRIPT = `(function () {
  'use strict';
  function rowsOf(table) { return Array.prototype.slice.call(table.querySelectorAll('tr[id^="L"]')); }
  function markBlobLines() {
    document.querySelectorAll('tr.selected').forEach(function (row) { row.classList.remove('selected'); });
    var match = /^#L(\\d+)(?:-(\\d+))?$/.exec(window.location.hash);
    if (!match) return;
    var from = Number(match[1]);
    var to = Number(match[2] || match[1]);
    if (to < from) { var swap = from; from = to; to = swap; }
    var paged = document.querySelector('table[data-lines-per-page]');
    if (paged && !document.getElementById('L' + from)) {
      window.location.replace('?page=' + Math.ceil(from / Number(paged.getAttribute('data-lines-per-page'))) + window.location.hash);
      return;
    }
    var first = null;
    for (var number = from; number <= to && number - from < 10000; number += 1) {
      var row = document.getElementById('L' + number);
      if (!row) break;
      row.classList.add('selected');
      first = first || row;
    }
    if (!first || !first.scrollIntoView) return;
    first.scrollIntoView({ block: 'center' });
    // Images still loading (avatars in the blame column) move rows after this scroll: once the page
    // has loaded, centre the line again.
    if (document.readyState !== 'complete') {
      var selected = first;
      window.addEventListener('load', function () { selected.scrollIntoView({ block: 'center' }); }, { once: true });
    }
  }
  var blobAnchor = null;
  var diffAnchor = null;
  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('td.num a[data-line-number]');
    if (!link) return;
    var table = link.closest('table');
    var row = link.closest('tr');
    if (table.classList.contains('blob')) {
      var number = Number(link.getAttribute('data-line-number'));
      if (event.shiftKey && blobAnchor !== null) {
        event.preventDefault();
        var from = Math.min(blobAnchor, number);
        var to = Math.max(blobAnchor, number);
        history.replaceState(null, '', '#L' + from + (to > from ? '-' + to : ''));
        markBlobLines();
      } else {
        blobAnchor = number;
      }
      return;
    }
    if (table.classList.contains('diff')) {
      var file = table.closest('.diff-file');
      var input = file && file.querySelector('input[name="line_range_start"]');
      document.querySelectorAll('table.diff tr.selected').forEach(function (selected) { selected.classList.remove('selected'); });
      if (event.shiftKey && diffAnchor && diffAnchor.closest('table') === table && input) {
        event.preventDefault();
        var rows = Array.prototype.slice.call(table.querySelectorAll('tr[data-line-code]'));
        var a = rows.indexOf(diffAnchor);
        var b = rows.indexOf(row);
        var start = Math.min(a, b);
        rows.slice(start, Math.max(a, b) + 1).forEach(function (selected) { selected.classList.add('selected'); });
        input.value = rows[start].getAttribute('data-line-code');
      } else {
        diffAnchor = row;
        if (input) input.value = '';
      }
    }
  });
  window.addEventListener('hashchange', markBlobLines);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', markBlobLines);
  else markBlobLines();
})();
`;
