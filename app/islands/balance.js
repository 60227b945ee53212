// The credit balance, live (docs/decisions/0030-sign-in-finishes-and-private-caching.md): inlined on
// signed-in pages (app/root.tsx). Every element marked `data-balance="<text>"` (the header's, the
// dashboard's) shows the newest balance without a reload. It asks the balance resource
// (`data-balance-url`, private and never stored) when:
// - a response to this page's own fetch says it spent (the `Registra-Balance` header: an export's
//   download, an API call, a job's status),
// - anything on the page says so: `document.dispatchEvent(new Event('registra:balance'))` (an
//   export job's page when its job has charged),
// - a download started from a link had time to start, or the page comes back into view (focus, a
//   tab shown again, the back button's copy);
// and tells the site's other tabs what it learnt (BroadcastChannel), which show it without asking.
(() => {
  const source = document.querySelector('[data-balance-url]');
  if (!(source instanceof HTMLElement)) return;
  const url = source.dataset.balanceUrl ?? '';
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('registra-balance') : null;
  const fetchFirst = window.fetch.bind(window);
  let shown = Number(source.dataset.balanceValue);
  let asking = null;

  function show(answer, tell) {
    if (!answer || typeof answer.balance !== 'number' || !answer.texts) return;
    for (const element of document.querySelectorAll('[data-balance]')) {
      const text = answer.texts[element.dataset.balance ?? ''];
      if (typeof text === 'string') element.textContent = text;
    }
    if (tell && channel && answer.balance !== shown) channel.postMessage(answer);
    shown = answer.balance;
  }

  function refresh() {
    asking ??= fetchFirst(url, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((answer) => show(answer, true))
      .catch(() => {})
      .finally(() => {
        asking = null;
      });
    return asking;
  }

  channel?.addEventListener('message', (event) => show(event.data, false));
  document.addEventListener('registra:balance', () => refresh());
  addEventListener('focus', () => refresh());
  addEventListener('pageshow', (event) => {
    if (event.persisted) refresh();
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') refresh();
  });
  window.fetch = async (...args) => {
    const response = await fetchFirst(...args);
    if (response.headers.has('registra-balance')) refresh();
    return response;
  };
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target?.closest('a[download], a[href*="/api/export/"], a[href*="/download/"]')) return;
    setTimeout(refresh, 1500);
    setTimeout(refresh, 5000);
  });
})();
