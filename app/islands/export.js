// The export page's island (ADR 0004: plain HTML pages, tiny inlined scripts). Without it the
// form posts and the browser downloads the file. With it, the same post is fetched: the download
// is read as it streams, a progress bar shows the rows against the `x-export-rows` header, and
// the file is saved only once it arrived whole (a broken download saves nothing).
(() => {
  const form = document.getElementById('export-form');
  if (!(form instanceof HTMLFormElement)) return;
  const box = form.querySelector('.export-progress');
  const bar = box?.querySelector('progress');
  const label = box?.querySelector('span');
  const status = form.querySelector('.export-status');
  const say = (text) => {
    if (status) status.textContent = text;
  };
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ''));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    say(form.dataset.progress ?? '');
    if (box) box.hidden = false;
    bar?.removeAttribute('value');
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        body: new URLSearchParams(new FormData(form)),
        credentials: 'same-origin',
      });
      if (!response.ok || !response.body) {
        const message = await response.text().catch(() => '');
        const reason = /"message":"([^"]*)"/.exec(message)?.[1];
        throw new Error(reason ? fill(form.dataset.invalid ?? '', { message: reason }) : (form.dataset.failed ?? ''));
      }
      const total = Number(response.headers.get('x-export-rows') ?? '0');
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export';
      // Rows are counted as lines (csv, json, xml write one row per line); a workbook is compressed: no count.
      const countable = !name.endsWith('.xlsx');
      const reader = response.body.getReader();
      const parts = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        if (countable && total > 0 && bar) {
          for (const byte of value) if (byte === 10) lines++;
          const rows = Math.min(total, Math.max(0, lines - 1));
          bar.max = total;
          bar.value = rows;
          if (label) label.textContent = fill(form.dataset.progressRows ?? '', { done: rows, total });
        }
      }
      const blob = new Blob(parts, { type: response.headers.get('content-type') ?? 'application/octet-stream' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      if (bar && total > 0) bar.value = bar.max;
      say(fill(form.dataset.done ?? '', { name }));
    } catch (error) {
      say(error instanceof Error && error.message ? error.message : (form.dataset.failed ?? ''));
    } finally {
      if (box) box.hidden = true;
      if (button) button.disabled = false;
    }
  });
})();
