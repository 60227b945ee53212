// Panels that fold away on a phone (ADR 0022), a small island inlined on every page (ADR 0004):
// the header's menu and search, and a search page's filters, are rendered closed, one line above what
// they fold, which is what a phone shows, with or without script. On a wide screen this opens them,
// and the stylesheet hides the summary of an open panel there.
(() => {
  const wide = window.matchMedia('(min-width: 50.01rem)');
  if (wide.matches) for (const details of document.querySelectorAll('details[data-wide-open]')) details.open = true;
  // The header's search on a phone: unfolding it puts the cursor in its box; Escape folds it again
  // (unless the suggestions list took the key to close itself).
  for (const details of document.querySelectorAll('details[data-focus-on-open]')) {
    details.addEventListener('toggle', () => {
      if (details.open && !wide.matches) details.querySelector('input')?.focus();
    });
    details.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented || wide.matches || !details.open) return;
      details.open = false;
      details.querySelector('summary')?.focus();
    });
  }
})();
