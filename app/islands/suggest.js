// Suggestions while typing (ADR 0022), a small island inlined by pages with a search box
// marked `data-suggest` (ADR 0004): asks GET /api/suggest as the visitor types and shows companies,
// people, jurisdictions and industries as a list of links under the box (the ARIA combobox pattern:
// arrow keys move through them, Enter opens one, Escape closes the list). Without script the box is
// a plain search form.
(() => {
  for (const input of document.querySelectorAll('input[data-suggest]')) {
    if (!(input instanceof HTMLInputElement) || input.dataset.suggestReady) continue;
    input.dataset.suggestReady = '1';
    const groups = JSON.parse(input.dataset.suggest || '{}');
    const list = document.createElement('ul');
    list.id = `${input.id}-suggestions`;
    list.className = 'suggestions';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', groups.label || '');
    list.hidden = true;
    input.after(list);
    input.parentElement?.classList.add('has-suggestions');
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', list.id);
    input.autocomplete = 'off';
    let timer = 0;
    let asked = 0;
    let active = -1;
    const options = () => [...list.querySelectorAll('[role="option"]')];
    const close = () => {
      list.hidden = true;
      active = -1;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
    };
    const highlight = (index) => {
      const all = options();
      if (all.length === 0) return;
      active = (index + all.length) % all.length;
      for (const [i, option] of all.entries()) option.setAttribute('aria-selected', String(i === active));
      input.setAttribute('aria-activedescendant', all[active].id);
      all[active].scrollIntoView({ block: 'nearest' });
    };
    const show = (data) => {
      // A later answer can arrive after an arrow key: the suggestion the visitor highlighted stays highlighted
      // when the new list still has it; otherwise none is.
      const kept = active >= 0 ? options()[active]?.getAttribute('href') : null;
      list.replaceChildren();
      let n = 0;
      for (const group of ['companies', 'people', 'jurisdictions', 'industries']) {
        const items = data[group] || [];
        if (items.length === 0) continue;
        const heading = document.createElement('li');
        heading.setAttribute('role', 'presentation');
        heading.className = 'suggestions-group';
        heading.textContent = groups[group] || group;
        list.append(heading);
        for (const item of items) {
          // The link is the option itself: a link inside an option would nest one control in another.
          const li = document.createElement('li');
          li.setAttribute('role', 'presentation');
          const link = document.createElement('a');
          link.setAttribute('role', 'option');
          link.id = `${list.id}-${n++}`;
          link.setAttribute('aria-selected', 'false');
          link.href = item.url;
          link.tabIndex = -1;
          link.textContent = item.label;
          if (item.detail) {
            const detail = document.createElement('span');
            detail.className = 'suggestions-detail';
            detail.textContent = ` · ${item.detail}`;
            link.append(detail);
          }
          li.append(link);
          list.append(li);
        }
      }
      if (n === 0) return close();
      list.hidden = false;
      active = -1;
      input.removeAttribute('aria-activedescendant');
      input.setAttribute('aria-expanded', 'true');
      const again = kept ? options().findIndex((option) => option.getAttribute('href') === kept) : -1;
      if (again >= 0) highlight(again);
    };
    input.addEventListener('input', () => {
      clearTimeout(timer);
      const q = input.value.trim();
      if (q.length < 2) return close();
      timer = setTimeout(async () => {
        const mine = ++asked;
        try {
          const lang = document.documentElement.lang || 'en';
          const response = await fetch(`/api/suggest?q=${encodeURIComponent(q)}&lang=${encodeURIComponent(lang)}`);
          if (!response.ok || mine !== asked) return;
          show((await response.json()).data);
        } catch {
          close();
        }
      }, 120);
    });
    input.addEventListener('keydown', (event) => {
      if (list.hidden) return;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        highlight(active + (event.key === 'ArrowDown' ? 1 : -1));
      } else if (event.key === 'Enter' && active >= 0) {
        event.preventDefault();
        const link = options()[active];
        if (link) location.assign(link.href);
      } else if (event.key === 'Escape') {
        // Only the list closes: a search box would clear what was typed.
        event.preventDefault();
        close();
      }
    });
    input.addEventListener('blur', () => setTimeout(close, 200));
  }
})();
