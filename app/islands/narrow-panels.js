// Panels that fold away on a phone (ADR 0022), a small island inlined on every page (ADR 0004):
// the header's menu and a search page's filters are rendered closed, one line above the results that
// opens them, which is what a phone shows, with or without script. On a wide screen this opens them,
// and the stylesheet hides the summary of an open panel there.
(() => {
  if (!window.matchMedia('(min-width: 50.01rem)').matches) return;
  for (const details of document.querySelectorAll('details[data-wide-open]')) details.open = true;
})();
