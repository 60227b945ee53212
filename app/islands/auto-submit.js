// Filters that apply on change (ADR 0022), a small island: a GET form marked `data-auto-submit`
// is sent as soon as one of its fields changes (a box ticked, a bound typed and left), and its
// "Apply" button, there for pages without script, is hidden. After the new page loads, the field
// that was changed has the focus again, so a keyboard user goes on where they were.
(() => {
  const KEY = 'registra:auto-submit-focus';
  for (const form of document.querySelectorAll('form[data-auto-submit]')) {
    if (!(form instanceof HTMLFormElement) || form.dataset.ready) continue;
    form.dataset.ready = '1';
    for (const button of form.querySelectorAll('[data-without-script]')) button.hidden = true;
    form.addEventListener('change', (event) => {
      const field = event.target;
      if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement) || !field.checkValidity()) return;
      try {
        sessionStorage.setItem(KEY, JSON.stringify([form.id, field.name, field.value]));
      } catch {}
      form.requestSubmit();
    });
    let last = null;
    try {
      last = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
      sessionStorage.removeItem(KEY);
    } catch {}
    if (!Array.isArray(last) || last[0] !== form.id) continue;
    const refocus = () => {
      const again = [...form.elements].find(
        (f) => f.name === last[1] && (f.type !== 'checkbox' || f.value === last[2]),
      );
      if (!again) return;
      // The panel the field is in stays open (on a phone it is rendered closed).
      const panel = again.closest('details');
      if (panel) panel.open = true;
      again.focus();
    };
    // After the page's other islands (the panels open on wide screens at the end of the page).
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', refocus);
    else refocus();
  }
})();
