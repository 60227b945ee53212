// "Select all" of a results table (ADR 0022), a small island: the header's box ticks or
// clears every row's box of the same form, and shows whether all, some or none are ticked. It is
// hidden until this script shows it (without script, rows are ticked one by one).
(() => {
  for (const all of document.querySelectorAll('input[data-select-all]')) {
    if (!(all instanceof HTMLInputElement) || all.dataset.ready) continue;
    all.dataset.ready = '1';
    all.hidden = false;
    const table = all.closest('table');
    const boxes = () => [
      ...(table?.querySelectorAll(`tbody input[name="ids"][form="${all.dataset.selectAll}"]`) ?? []),
    ];
    const sync = () => {
      const ticked = boxes().filter((box) => box.checked).length;
      all.checked = ticked > 0 && ticked === boxes().length;
      all.indeterminate = ticked > 0 && ticked < boxes().length;
    };
    all.addEventListener('change', () => {
      for (const box of boxes()) box.checked = all.checked;
    });
    table?.addEventListener('change', (event) => {
      if (event.target !== all) sync();
    });
    sync();
  }
})();
