// The one script pages load (/-/assets/kiln.js), progressive enhancement only: every page works
// without it. CSP allows scripts from Kiln alone, so behaviour hangs off data attributes:
// - `[data-copy]` buttons copy the value of the element their attribute names;
// - `form[data-confirm]` asks before submitting (deleting a project);
// - `[data-sync]` inputs copy their value into the field their attribute names (a colour picker);
// - `[data-attach]` links ("Attach a file", uploads/attach-control.ts) pick a file, and files dropped
//   on their form's text area are uploaded to the URL they name; the answer's Markdown goes in at the cursor;
// - `select[data-template-for]` (a description template, templates/template-picker.ts) fills the text
//   area it names from its own form's page, asking before replacing text the author typed;
// - `[data-live]` regions refresh themselves from their own page every few seconds (the alert list
//   updating as alerts arrive), keeping the rest of the page and where the reader is.
export const SCRIPT = `(function () {
  'use strict';
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('[data-copy]');
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    if (!source || !navigator.clipboard) return;
    navigator.clipboard.writeText(source.value || source.textContent).then(function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 1500);
    });
  });
  // A colour picker fills the text field it names (a label's colour): the field is what is sent.
  document.addEventListener('input', function (event) {
    var target = event.target.getAttribute && event.target.getAttribute('data-sync');
    var field = target && document.getElementById(target);
    if (field) field.value = event.target.value;
  });
  document.addEventListener('submit', function (event) {
    var message = event.target.getAttribute && event.target.getAttribute('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
  });
  // Attachments: upload with the form's CSRF token, then put the Markdown where the cursor is.
  function attach(link, file) {
    var form = link.closest('form');
    var area = form && form.querySelector('textarea');
    var token = form && form.querySelector('input[name="authenticity_token"]');
    if (!area || !token || !window.fetch || !window.FormData) return;
    var body = new FormData();
    body.append('file', file);
    link.textContent = 'Uploading…';
    fetch(link.getAttribute('data-attach'), { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json', 'x-csrf-token': token.value }, body: body })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        link.textContent = answer ? 'Attach a file' : 'Upload failed: try again';
        if (!answer) return;
        var at = area.selectionStart || area.value.length;
        area.value = area.value.slice(0, at) + answer.link.markdown + area.value.slice(at);
        area.focus();
      })
      .catch(function () { link.textContent = 'Upload failed: try again'; });
  }
  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('[data-attach]');
    if (!link || !link.closest('form')) return;
    event.preventDefault();
    var picker = document.createElement('input');
    picker.type = 'file';
    picker.addEventListener('change', function () { if (picker.files && picker.files[0]) attach(link, picker.files[0]); });
    picker.click();
  });
  document.addEventListener('dragover', function (event) {
    var form = event.target.closest && event.target.tagName === 'TEXTAREA' && event.target.closest('form');
    if (form && form.querySelector('[data-attach]')) event.preventDefault();
  });
  document.addEventListener('drop', function (event) {
    var form = event.target.closest && event.target.tagName === 'TEXTAREA' && event.target.closest('form');
    var link = form && form.querySelector('[data-attach]');
    if (!link || !event.dataTransfer || !event.dataTransfer.files.length) return;
    event.preventDefault();
    attach(link, event.dataTransfer.files[0]);
  });
  // Description templates: the page the select's GET form would load carries the filled text area;
  // its text replaces the description in place. "Typed" is anything but what a template put there.
  document.querySelectorAll('select[data-template-for]').forEach(function (select) {
    var area = document.getElementById(select.getAttribute('data-template-for'));
    var form = select.form;
    if (!area || !form || !window.fetch || !window.DOMParser || !window.FormData) return;
    document.querySelectorAll('[form="' + form.id + '"][data-template-apply]').forEach(function (button) { button.style.display = 'none'; });
    var filled = select.value ? area.value : '';
    var previous = select.value;
    select.addEventListener('change', function () {
      var typed = area.value.trim() !== '' && area.value !== filled;
      if (typed && !window.confirm('Applying a template will replace the existing description. Any changes you have made will be lost.')) {
        select.value = previous;
        return;
      }
      var query = new URLSearchParams(new FormData(form)).toString();
      select.setAttribute('aria-busy', 'true');
      fetch(form.action + '?' + query, { credentials: 'same-origin', headers: { accept: 'text/html' } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (text) {
          var fresh = text && new DOMParser().parseFromString(text, 'text/html').getElementById(area.id);
          if (!fresh) return form.submit();
          area.value = filled = fresh.value;
          previous = select.value;
          select.removeAttribute('aria-busy');
        })
        .catch(function () { form.submit(); });
    });
  });
  var regions = document.querySelectorAll('[data-live]');
  if (!regions.length || !window.fetch || !window.DOMParser) return;
  var interval = 1000 * (Number(regions[0].getAttribute('data-live')) || 5);
  function refresh() {
    if (document.hidden) return;
    fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        if (!text) return;
        var next = new DOMParser().parseFromString(text, 'text/html');
        regions.forEach(function (region) {
          var fresh = region.id && next.getElementById(region.id);
          if (fresh && fresh.innerHTML !== region.innerHTML) region.innerHTML = fresh.innerHTML;
        });
        var status = document.querySelector('.live-status');
        if (status) status.textContent = 'Updated ' + new Date().toLocaleTimeString();
      })
      .catch(function () {});
  }
  setInterval(refresh, interval);
})();
`;
