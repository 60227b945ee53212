// The enrichment's review without a page load (ADR 0032), a small island inlined on a finished
// enrichment's page: a row's decision (`form[data-review-row]`) is posted with fetch to the form's
// `data-review-row` address — the same form fields, its CSRF token among them — which answers JSON;
// the row is then replaced in place by
// what was decided, and the summary's counts are updated. Without script (or when fetch fails
// before an answer) the form posts as it is and the server brings the page back to the row.
(() => {
  const live = document.getElementById('enrichment-review-status');
  document.addEventListener('submit', async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.reviewRow) return;
    event.preventDefault();
    if (form.dataset.sending) return;
    form.dataset.sending = '1';
    const body = new FormData(form, event.submitter ?? undefined);
    const alert = form.querySelector('[data-review-error]');
    let response;
    try {
      response = await fetch(form.dataset.reviewRow, {
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
      if (alert) {
        alert.textContent = answer?.error ?? `${response.status} ${response.statusText}`;
        alert.hidden = false;
      }
      return;
    }
    const done = document.createElement('p');
    done.className = 'enrichment-decided';
    done.id = form.id;
    done.tabIndex = -1;
    done.textContent = answer.text;
    form.replaceWith(done);
    done.focus();
    if (live) live.textContent = answer.text;
    for (const count of Array.isArray(answer.counts) ? answer.counts : []) {
      const cell = document.querySelector(`.enrichment-summary [data-outcome="${count.outcome}"] strong`);
      if (cell) cell.textContent = count.count;
    }
  });
})();
