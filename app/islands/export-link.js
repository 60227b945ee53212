// The "Export" link of search results and lists: when rows are ticked, the export page opens with
// them (`ids=…`), so that "the selected rows" can be chosen there. Without JavaScript the link
// opens the export of the whole search.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[data-export-select]') : null;
  if (!(link instanceof HTMLAnchorElement)) return;
  const ids = [...document.querySelectorAll(link.dataset.exportSelect ?? '')]
    .filter((box) => box instanceof HTMLInputElement && box.checked)
    .map((box) => box.value);
  if (ids.length === 0) return;
  event.preventDefault();
  const url = new URL(link.href, location.href);
  url.searchParams.set('ids', ids.join(','));
  location.assign(url.toString());
});
