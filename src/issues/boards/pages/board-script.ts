// The board's pointer moves (/-/assets/boards.js, loaded by the board page only): a card dragged
// onto another list submits that card's own "Move to" form with the list chosen, so a drop does
// exactly what the keyboard form does (htmx sends it and swaps the board). Without the script the
// forms work alone.
export const BOARD_SCRIPT_TEXT = `(function () {
  'use strict';
  var dragged = null;
  function listOf(event) { return dragged && event.target.closest ? event.target.closest('.board-list[data-list]') : null; }
  document.addEventListener('dragstart', function (event) {
    var card = event.target.closest && event.target.closest('.board-card[draggable]');
    if (!card) return;
    dragged = card;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', card.id);
  });
  document.addEventListener('dragover', function (event) {
    var list = listOf(event);
    if (!list) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
  });
  document.addEventListener('drop', function (event) {
    var list = listOf(event);
    if (!list) return;
    event.preventDefault();
    var form = dragged.querySelector('form.move-issue');
    dragged = null;
    var select = form && form.querySelector('select[name=to]');
    var to = list.getAttribute('data-list');
    if (!select || form.querySelector('input[name=from]').value === to) return;
    select.value = to;
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  });
  document.addEventListener('dragend', function () { dragged = null; });
})();
`;
