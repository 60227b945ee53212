// Paddle's checkout on the order's checkout page (docs/decisions/0019-billing.md), inlined (ADR 0004).
// It loads Paddle.js, initialises it with the public client token and opens the transaction the
// server opened for the order (its price, quantity 1, and customData naming the order, which the
// webhook credits: the browser chooses none of them), with the orders page as the success callback. The pay button starts disabled and says
// that it needs JavaScript; if Paddle.js cannot load (blocked, offline, failed), it says so and
// stays disabled, instead of doing nothing.
(() => {
  const button = document.getElementById('paddle-pay');
  if (!(button instanceof HTMLButtonElement)) return;
  const d = button.dataset;
  const status = document.getElementById('paddle-status');
  const fail = () => {
    button.disabled = true;
    if (status) status.textContent = d.failed ?? '';
  };
  const script = document.createElement('script');
  script.src = 'https://cdn.paddle.com/paddle/v2/paddle.js';
  script.async = true;
  const timer = setTimeout(fail, 15000);
  script.addEventListener('error', () => {
    clearTimeout(timer);
    fail();
  });
  script.addEventListener('load', () => {
    clearTimeout(timer);
    const Paddle = window.Paddle;
    if (!Paddle || typeof Paddle.Initialize !== 'function') return fail();
    try {
      if (d.environment === 'sandbox') Paddle.Environment.set('sandbox');
      Paddle.Initialize({
        token: d.token,
        eventCallback: (event) => {
          if (event && event.name === 'checkout.completed') location.assign(d.success ?? '/');
        },
      });
    } catch {
      return fail();
    }
    button.disabled = false;
    if (status) status.textContent = '';
    button.textContent = d.label ?? button.textContent;
    button.addEventListener('click', () => {
      Paddle.Checkout.open({
        transactionId: d.transaction,
        customer: d.email ? { email: d.email } : undefined,
        settings: { successUrl: new URL(d.success ?? '/', location.href).href, allowLogout: false },
      });
    });
  });
  document.head.append(script);
})();
