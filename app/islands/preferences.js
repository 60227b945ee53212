// Stored preferences (spec §4), a small island inlined on every page (ADR 0004): what a visitor
// opened or closed that is worth keeping — the table settings of search pages, charts shown as
// tables — lives in local storage and is restored on the next page. The `preference_entities`
// cookie (one day, path /, spec §9) says the stored preferences are current: when the cookie is
// missing but storage has data, the storage is reset to empty (spec §4).
(() => {
  const KEY = 'registra.preferences';
  const COOKIE = 'preference_entities';
  const MAX_AGE = 86400;
  let prefs = {};
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) prefs = stored;
  } catch {
    prefs = {};
  }
  const hasCookie = document.cookie.split(';').some((c) => c.trim().startsWith(`${COOKIE}=`));
  if (!hasCookie && Object.keys(prefs).length > 0) {
    prefs = {};
    try {
      localStorage.setItem(KEY, '{}');
    } catch {}
  }
  for (const details of document.querySelectorAll('details[data-pref]')) {
    const open = prefs[details.dataset.pref ?? ''];
    if (typeof open === 'boolean') details.open = open;
  }
  document.addEventListener(
    'toggle',
    (event) => {
      const details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.dataset.pref) return;
      if (prefs[details.dataset.pref] === details.open) return;
      prefs[details.dataset.pref] = details.open;
      try {
        localStorage.setItem(KEY, JSON.stringify(prefs));
        // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve.
        document.cookie = `${COOKIE}=1; Max-Age=${MAX_AGE}; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
      } catch {}
    },
    true,
  );
})();
