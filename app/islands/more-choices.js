// Long filter lists (ADR 0043), a small island: the panel shows a long list's chosen values and a
// few others, and a link to the page with all of them, which works without script (a form of its
// own). With script the link fetches that page and puts its whole list in place of the short one,
// inside the panel's form: the boxes ticked as they are now, the focus on the first box that was
// not shown before, so a keyboard user goes on from the link. If the page cannot be read, the link
// is followed as a plain link.
(() => {
  document.addEventListener('click', async (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[data-more-choices]') : null;
    if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const list = document.getElementById(link.dataset.moreChoices ?? '');
    if (!list) return;
    event.preventDefault();
    if (link.getAttribute('aria-busy') === 'true') return;
    link.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch(link.href, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`${response.status}`);
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const whole = page.getElementById(list.id);
      if (!whole) throw new Error('no list');
      const ticked = new Set([...list.querySelectorAll('input:checked')].map((box) => box.value));
      const shown = new Set([...list.querySelectorAll('input')].map((box) => box.value));
      for (const box of whole.querySelectorAll('input')) box.toggleAttribute('checked', ticked.has(box.value));
      const adopted = document.importNode(whole, true);
      list.replaceWith(adopted);
      link.remove();
      const first = [...adopted.querySelectorAll('input')].find((box) => !shown.has(box.value));
      first?.focus();
    } catch {
      window.location.assign(link.href);
    }
  });
})();
