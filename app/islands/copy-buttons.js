// Copy buttons of a profile's key identifiers (ADR 0022), a small island: each button copies the
// text of the element its `data-copy` names and says so for a moment ("Copied", in its
// `data-copied` text, announced by its live region). The buttons are hidden until this script
// shows them; without script the values stay plain, selectable text.
(() => {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    if (!(button instanceof HTMLButtonElement) || button.dataset.ready) continue;
    button.dataset.ready = '1';
    const value = document.getElementById(button.dataset.copy ?? '');
    const status = button.nextElementSibling;
    if (!value || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(value.textContent?.trim() ?? '');
        if (status) status.textContent = button.dataset.copied ?? '';
        button.dataset.done = '1';
        setTimeout(() => {
          if (status) status.textContent = '';
          delete button.dataset.done;
        }, 2000);
      } catch {
        // Refused (no permission): the value stays selectable by hand.
      }
    });
  }
})();
