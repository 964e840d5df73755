// Keyboard shortcuts (GitLab's, doc/user/shortcuts.md), appended to /-/assets/kiln.js (assets.ts).
// The page says which shortcuts it has; the script parses no addresses:
// - `[data-shortcut]` on a link goes to the link, on a field focuses it. Its value lists the ways to
//   press it, separated by spaces; a two-key sequence is written `g,i` (the second key within a
//   second of the first); an upper-case letter is that letter with Shift (`P`: Shift+P).
//   `data-shortcut-label` names what it does, else the element's first text ("Go to Issues").
// - `[data-find-file]` (`t`; the page's own in <main> before the project sidebar's), `[data-new-issue]`
//   (`i`: the project's new issue form) and `[data-permalink]` (`y`: the address becomes the same page at the commit's SHA) on repository pages.
// - `?` opens the list of this page's shortcuts in the layout's <dialog id="keyboard-shortcuts">
//   (shortcuts/dialog.ts), as does the "Keyboard shortcuts" menu entry; the browser traps focus in
//   it and closes it with Escape.
// Never while typing in a field, never with Ctrl, Meta or Alt, never behind the open dialog.
export const SHORTCUT_SCRIPT = `(function () {
  'use strict';
  var SEQUENCE_MS = 1000;
  function firstText(element) {
    for (var node = element.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3 && node.textContent.trim()) return node.textContent.trim();
    }
    return element.textContent.trim();
  }
  // A shortcut in a sidebar belongs to its group ("This project"); the repository keys too, wherever
  // the page keeps them; everything else is global.
  function group(element, ofPage) {
    var nav = element.closest('[data-shortcut-group]') || (ofPage && document.querySelector('[data-shortcut-group]'));
    return nav ? nav.getAttribute('data-shortcut-group') : ofPage ? 'This page' : 'Global';
  }
  /** What this page offers: [{ keys: ['g,i'], label, group, run }], in page order. */
  function bindings() {
    var list = [{ keys: ['?'], label: 'Show or hide this list of shortcuts', group: 'Global', run: toggleDialog }];
    document.querySelectorAll('[data-shortcut]').forEach(function (element) {
      var field = /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName);
      list.push({
        keys: element.getAttribute('data-shortcut').split(' ').filter(Boolean),
        label: element.getAttribute('data-shortcut-label') || 'Go to ' + firstText(element),
        group: group(element),
        run: field ? function () { element.focus(); if (element.select) element.select(); } : function () { window.location.href = element.href; },
      });
    });
    var finder = document.querySelector('main [data-find-file]') || document.querySelector('[data-find-file]');
    if (finder) list.push({ keys: ['t'], label: 'Find a file', group: group(finder, true), run: function () { window.location.href = finder.getAttribute('data-find-file'); } });
    var newIssue = document.querySelector('[data-new-issue]');
    if (newIssue) list.push({ keys: ['i'], label: 'New issue', group: group(newIssue, true), run: function () { window.location.href = newIssue.getAttribute('data-new-issue'); } });
    var permalink = document.querySelector('[data-permalink]');
    if (permalink) list.push({ keys: ['y'], label: 'Go to the permalink of this page (its commit)', group: group(permalink, true), run: function () { history.replaceState(null, '', permalink.getAttribute('data-permalink') + window.location.hash); } });
    return list;
  }
  function dialog() { return document.getElementById('keyboard-shortcuts'); }
  function kbd(key) {
    var element = document.createElement('kbd');
    element.textContent = key;
    return element;
  }
  /** \`g,i\` as "g then i", \`P\` as "Shift + p". */
  function keysCell(keys) {
    var cell = document.createElement('td');
    keys.forEach(function (way, index) {
      if (index > 0) cell.appendChild(document.createTextNode(' or '));
      way.split(',').forEach(function (key, step) {
        if (step > 0) cell.appendChild(document.createTextNode(' then '));
        if (/^[A-Z]$/.test(key)) {
          cell.appendChild(kbd('Shift'));
          cell.appendChild(document.createTextNode(' + '));
          cell.appendChild(kbd(key.toLowerCase()));
        } else {
          cell.appendChild(kbd(key));
        }
      });
    });
    return cell;
  }
  function fillDialog(box) {
    var holder = box.querySelector('[data-shortcut-list]');
    holder.textContent = '';
    var groups = {};
    var order = [];
    bindings().forEach(function (binding) {
      if (!groups[binding.group]) { groups[binding.group] = []; order.push(binding.group); }
      groups[binding.group].push(binding);
    });
    order.forEach(function (name) {
      var table = document.createElement('table');
      table.className = 'shortcut-table';
      var caption = document.createElement('caption');
      caption.textContent = name;
      table.appendChild(caption);
      var head = table.createTHead().insertRow();
      ['Keys', 'Action'].forEach(function (title) {
        var th = document.createElement('th');
        th.scope = 'col';
        th.textContent = title;
        head.appendChild(th);
      });
      var body = table.createTBody();
      groups[name].forEach(function (binding) {
        var row = body.insertRow();
        row.appendChild(keysCell(binding.keys));
        row.insertCell().textContent = binding.label;
      });
      holder.appendChild(table);
    });
  }
  function toggleDialog() {
    var box = dialog();
    if (!box || !box.showModal) return;
    if (box.open) { box.close(); return; }
    fillDialog(box);
    box.showModal();
  }
  document.querySelectorAll('[data-show-shortcuts]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var menu = button.closest('details');
      if (menu) menu.open = false;
      toggleDialog();
    });
  });
  var pending = null;
  document.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var box = dialog();
    if (box && box.open) {
      if (event.key === '?') { event.preventDefault(); box.close(); }
      return;
    }
    var key = event.key;
    // The second key of a sequence, else the key on its own (\`g\` then \`t\` is \`t\`).
    var tries = pending && event.timeStamp - pending.at <= SEQUENCE_MS ? [pending.key + ',' + key, key] : [key];
    pending = null;
    var list = bindings();
    var found = null;
    var starts = false;
    tries.forEach(function (pressed) {
      list.forEach(function (binding) {
        if (!found && binding.keys.indexOf(pressed) >= 0) found = binding;
      });
    });
    list.forEach(function (binding) {
      binding.keys.forEach(function (way) { if (way.indexOf(key + ',') === 0) starts = true; });
    });
    if (found) {
      event.preventDefault();
      found.run();
    } else if (starts) {
      pending = { key: key, at: event.timeStamp };
    }
  });
})();
`;
