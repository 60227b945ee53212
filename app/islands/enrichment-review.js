// The enrichment's review without a page load (ADR 0032), a small island inlined on a finished
// enrichment's page. A row's decision (`form[data-review-row]`) and "accept all at or above N %"
// (`form[data-review-all]`) are posted with fetch to the form's data address — the same form
// fields, its CSRF token among them — which answers JSON: each row decided is then replaced in
// place by what was decided, the summary's counts are updated and the outcome is read out. Without
// script (or when fetch fails before an answer) the form posts as it is and the server brings the
// page back to the row (or to the review, with what "accept all" did).
(() => {
  const live = document.getElementById('enrichment-review-status');
  /** A decided row: its form gives way to the sentence saying what was decided. */
  const decided = (anchor, text) => {
    const form = document.getElementById(anchor);
    if (!(form instanceof HTMLFormElement)) return null;
    const done = document.createElement('p');
    done.className = 'enrichment-decided';
    done.id = anchor;
    done.tabIndex = -1;
    done.textContent = text;
    form.replaceWith(done);
    return done;
  };
  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const address = form.dataset.reviewRow ?? form.dataset.reviewAll;
    if (!address) return;
    event.preventDefault();
    if (form.dataset.sending) return;
    form.dataset.sending = '1';
    const body = new FormData(form, event.submitter ?? undefined);
    const alert = form.querySelector('[data-review-error]');
    let response;
    try {
      response = await fetch(address, {
        method: 'POST',
        body: new URLSearchParams(body),
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
    } catch {
      // No answer at all (offline): the plain post says so the browser's way.
      delete form.dataset.sending;
      form.submit();
      return;
    }
    delete form.dataset.sending;
    let answer = null;
    try {
      answer = await response.json();
    } catch {}
    if (!response.ok || !answer || typeof answer.text !== 'string') {
      const message = answer?.error ?? `${response.status} ${response.statusText}`;
      if (alert) {
        alert.textContent = message;
        alert.hidden = false;
      } else if (live) live.textContent = message;
      return;
    }
    if (form.dataset.reviewAll) {
      for (const row of Array.isArray(answer.rows) ? answer.rows : []) decided(row.anchor, row.text);
      const notice = document.querySelector('[data-accept-all-notice]');
      if (notice instanceof HTMLElement) {
        notice.textContent = answer.text;
        notice.hidden = false;
        notice.focus();
      }
    } else decided(form.id, answer.text)?.focus();
    if (live) live.textContent = answer.text;
    for (const count of Array.isArray(answer.counts) ? answer.counts : []) {
      const cell = document.querySelector(`.enrichment-summary [data-outcome="${count.outcome}"] strong`);
      if (cell) cell.textContent = count.count;
    }
  });
})();
