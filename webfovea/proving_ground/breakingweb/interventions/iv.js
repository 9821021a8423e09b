// Client-layer interventions. Included in every stateful page in both conditions; inert when
// window.__IV_PLAN__ is null. Behaviours are keyed by ordinals (the n-th pointer-down, the n-th
// click on a selector), never by timers, clocks or randomness. Each firing is reported to the
// server's audit log.
(function () {
  const plan = window.__IV_PLAN__;
  if (!plan) return;
  const report = (event, detail) => {
    try { fetch('/_iv/event', {method: 'POST', keepalive: true, headers: {'content-type': 'application/json'},
                                body: JSON.stringify(Object.assign({event}, detail || {}))}); } catch (e) { /* best effort */ }
  };
  let pointerdowns = 0;
  if (plan.overlay) {
    let shown = false;
    window.addEventListener('pointerdown', (e) => { if (e.isTrusted) pointerdowns += 1; }, true);
    // Opened during the click of the n-th pointer-down: that click still reaches its target
    // (its target is fixed), every later one lands on the dialog.
    window.addEventListener('click', () => {
      if (shown || pointerdowns < plan.overlay.after_pointerdowns) return;
      shown = true;
      const o = document.createElement('div');
      o.id = 'iv-overlay';
      o.setAttribute('role', 'dialog');
      o.setAttribute('aria-label', 'Newsletter');
      o.style.cssText = 'position:fixed;inset:0;background:rgba(15,59,99,.45);z-index:9999;display:flex;align-items:center;justify-content:center';
      o.innerHTML = '<div style="background:#fff;padding:28px 34px;border-radius:8px;max-width:520px;font-size:16px">' +
        '<h2 style="margin-top:0;color:#0f3b63">Stay informed</h2><p>Subscribe to our release calendar and never miss a new dataset.</p>' +
        '<button type="button" class="iv-subscribe">Subscribe</button> <button type="button" class="iv-close secondary">No thanks</button></div>';
      o.querySelector('.iv-close').addEventListener('click', () => { o.hidden = true; o.style.display = 'none'; report('overlay_closed'); });
      document.body.appendChild(o);
      report('overlay_shown', {pointerdowns});
    }, true);
  }
  if (plan.swallow) {
    // The ordinal counts per session, not per page load: the page starts from the matching
    // clicks the server has already been told of (`seen`), so a reload does not swallow again.
    let n = plan.swallow.seen || 0;
    window.addEventListener('click', (e) => {
      const t = e.target instanceof Element ? e.target.closest(plan.swallow.selector) : null;
      if (!t) return;
      n += 1;
      if (plan.swallow.clicks.indexOf(n) >= 0) {
        e.stopImmediatePropagation();
        e.preventDefault();
        report('click_swallowed', {ordinal: n});
      } else {
        report('click_seen', {ordinal: n});
      }
    }, true);
  }
  if (plan.label_shift) {
    const style = document.createElement('style');
    // Grid rows are 36px + 12px gap: move every label one row down, the last one into the gap.
    // Only drawn elsewhere: the shifted labels take no clicks and the form makes room below, so
    // the button under the last field stays where a click can reach it.
    style.textContent = '#app .fields .lbl { position: relative; top: ' + (48 * plan.label_shift.rows) + 'px; pointer-events: none; }' +
      ' #app .fields { margin-bottom: ' + (48 * plan.label_shift.rows) + 'px; }';
    document.head.appendChild(style);
    report('labels_shifted', {rows: plan.label_shift.rows});
  }
})();
