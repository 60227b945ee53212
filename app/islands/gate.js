// The sign-in gate (spec §4, §5), a small island on pages that are otherwise plain HTML (ADR 0004),
// inlined where a page offers a gated action (app/components/user-data.tsx): no request, no framework.
//
// Guests: a gated control (`a[data-gate]`: add to list, create a list, save a search, track, save or
// load a table view, export, enrich, buy) opens the "Sign in to proceed" dialog instead of acting;
// its sign-in link returns here with the pending action in the fragment (`#pending=add-to-list&ids=1,2`),
// and so do "Create an account" (through the activation email) and "Forgot your password?" (through
// the recovery email and the sign-in after the reset): ADR 0030. Without JavaScript the control is a
// plain link to the sign-in page with the same return address.
//
// Signed-in users back from signing in: the form marked `data-pending="<action>"` is filled from
// the fragment and sent (a POST with the session's CSRF token, like a click would); a submit button
// so marked (one that sends the rows' form elsewhere, "Track selected") is that form's submitter. It
// is sent by itself only on the page a sign-in has just landed on (the `signed_in` cookie, which only
// our sign-in responses set); a link from elsewhere that carries a pending action only shows the
// form. An action that spends (credits, a purchase) is sent by itself only when this browser asked
// for it from the gate (remembered in localStorage); else the filled form waits for the user's click.
(() => {
  const dialog = document.getElementById('sign-in-gate');
  /** Gated actions that spend credits or money: they need this browser's own request (ADR 0030). */
  const SPENDS = /^(export|enrich|buy-.+)$/;
  /** localStorage: `<when> <returnTo>` of the last action the gate was asked for. */
  const ASKED = 'registra.gate';

  /** At most one popup is open at a time (spec §4). */
  function closeOtherDialogs() {
    for (const open of document.querySelectorAll('dialog[open]')) {
      if (open !== dialog) open.close();
    }
  }

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = target?.closest('a[data-gate]');
    if (!control || !dialog) return;
    event.preventDefault();
    const fragment = new URLSearchParams({ pending: control.dataset.gate ?? '' });
    // Selected rows travel with the action (the search results' checkboxes).
    if (control.dataset.gateSelect) {
      const ids = [...document.querySelectorAll(control.dataset.gateSelect)]
        .filter((box) => box instanceof HTMLInputElement && box.checked)
        .map((box) => box.value);
      if (ids.length > 0) fragment.set('ids', ids.join(','));
    }
    const returnTo = `${location.pathname}${location.search}#${fragment}`;
    // Without storage (private mode, full) a spend waits for a click on landing.
    try {
      localStorage.setItem(ASKED, `${Date.now()} ${returnTo}`);
    } catch {}
    for (const link of dialog.querySelectorAll('a[data-gate-return]')) {
      const url = new URL(link.getAttribute('href') ?? '', location.href);
      url.searchParams.set('returnTo', returnTo);
      link.setAttribute('href', `${url.pathname}${url.search}`);
    }
    const message = dialog.querySelector('[data-gate-message]');
    if (message && control.dataset.gateText) message.textContent = control.dataset.gateText;
    closeOtherDialogs();
    if (!dialog.open) dialog.showModal();
  });

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', finishPending);
  else finishPending();

  function finishPending() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const pending = fragment.get('pending');
    if (!pending) return;
    // Landed by a sign-in: the `signed_in` cookie, read and removed.
    const landed = /(^|; )signed_in=1/.test(document.cookie);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser yet.
    if (landed) document.cookie = 'signed_in=; Max-Age=0; Path=/';
    // This browser's gate asked for exactly this page and action, within a day and an hour (an
    // activation link lives 24 hours); read once.
    let asked = '';
    try {
      asked = localStorage.getItem(ASKED) ?? '';
      localStorage.removeItem(ASKED);
    } catch {}
    const [at, returnTo] = asked.split(' ');
    const mine = Date.now() - Number(at) < 9e7 && new URL(returnTo, location.href).href === location.href;
    // Once: a reload, or going back to this page, sends nothing again.
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    const marked = [...document.querySelectorAll('[data-pending]')].find((f) => f.dataset.pending === pending);
    const submitter = marked instanceof HTMLButtonElement ? marked : undefined;
    const form = submitter ? submitter.form : marked;
    if (!(form instanceof HTMLFormElement)) return;
    for (const [name, value] of fragment) {
      if (name === 'pending' || name === '_csrf') continue;
      for (const part of name === 'ids' ? value.split(',') : [value]) fill(form, name, part);
    }
    if (landed && (mine || !SPENDS.test(pending)) && (submitter?.formNoValidate || form.checkValidity())) {
      form.requestSubmit(submitter);
      return;
    }
    // The form may be folded away (the search results' actions on a phone): unfold it to show it.
    const folded = form.closest('details');
    if (folded) folded.open = true;
    form.scrollIntoView({ block: 'center' });
    const first = form.querySelector('input:not([type=hidden]), select, textarea, button');
    if (first instanceof HTMLElement) first.focus();
  }

  /** Ticks a box of that value, else sets the field, else adds a hidden field to the form. */
  function fill(target, name, value) {
    const field = target.elements.namedItem(name);
    const boxes = field instanceof RadioNodeList ? [...field] : field ? [field] : [];
    for (const box of boxes) {
      if (box instanceof HTMLInputElement && box.type === 'checkbox' && box.value === value) {
        box.checked = true;
        return;
      }
    }
    const single = boxes[0];
    if (single && !(single instanceof HTMLInputElement && single.type === 'checkbox')) {
      single.value = value;
      return;
    }
    const hidden = document.createElement('input');
    hidden.type = 'hidden';
    hidden.name = name;
    hidden.value = value;
    target.append(hidden);
  }
})();
