// Search URLs without empty parameters (ADR 0022), a small island inlined on every page
// (ADR 0004): a GET form leaves out the fields left empty ("Any", a blank bound) when it is sent.
// Hidden fields and ticked boxes are sent as they are: an empty one can be a value
// (`identifiers[lei]:is_known=`); a box not ticked is not sent anyway.
// Without script the form sends every field, and the search reads an empty one as no filter.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method !== 'get') return;
  const left = [];
  for (const field of form.elements) {
    const empty =
      (field instanceof HTMLInputElement &&
        !['hidden', 'checkbox', 'radio'].includes(field.type) &&
        field.value === '') ||
      (field instanceof HTMLSelectElement && field.value === '');
    if (empty && field.name && !field.disabled) {
      field.disabled = true;
      left.push(field);
    }
  }
  // Enabled again once the form's data is taken (a page kept in the back/forward cache is usable).
  setTimeout(() => {
    for (const field of left) field.disabled = false;
  });
});
