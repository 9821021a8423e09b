// Client-layer interventions. Included in every stateful page in both conditions; inert when
// window.__IV_PLAN__ is null. Behaviours are keyed by ordinals (the n-th pointer-down, the n-th
// click on a selector), never by timers, clocks or randomness. Each firing is reported to the
// server's audit log. The same file is compiled into every React environment's bundle
// (react/kit/Interventions.jsx requires it and calls `apply` with the plan the session answers).
function wfApplyIvPlan(plan) {
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
  // A "Saved" toast the page draws itself (misleading toast): where the app shows its own, in
  // #wf-status, and gone at the next matching click, before the app's real toast can appear.
  const forgeToast = (text) => {
    const host = document.getElementById('wf-status');
    if (!host || document.getElementById('toast')) return;
    const t = document.createElement('div');
    t.id = 'toast';
    t.className = 'iv-forged';
    t.setAttribute('role', 'status');
    t.innerHTML = '<span class="msg"></span><span class="ref"></span>';
    t.querySelector('.msg').textContent = text;
    host.appendChild(t);
    report('toast_forged');
  };
  const dropForged = () => { const t = document.querySelector('#toast.iv-forged'); if (t) t.remove(); };
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
        if (plan.swallow.toast) forgeToast(plan.swallow.toast);
      } else {
        dropForged();
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
  // Re-applied after every DOM change: the apps re-render their views from the API.
  const observe = (fn) => {
    const run = () => { try { fn(); } catch (e) { /* a half-rendered view: the next mutation retries */ } };
    run();
    new MutationObserver(run).observe(document.documentElement, {childList: true, subtree: true});
  };
  const css = (text) => { const st = document.createElement('style'); st.textContent = text; document.head.appendChild(st); };
  const el = (html) => { const d = document.createElement('div'); d.innerHTML = html; return d.firstElementChild; };
  // Keep `node` right before the first element matching `sel` (the task's submit/apply control).
  const besideFirst = (node, sel) => observe(() => {
    const t = document.querySelector(sel);
    if (t && node.nextElementSibling !== t) t.parentNode.insertBefore(node, t);
  });
  const target = (e, sel) => (e.target instanceof Element ? e.target.closest(sel) : null);
  if (plan.terms && !plan.terms.accepted) {
    const bar = el('<div id="iv-terms" role="region" aria-label="Terms of use" style="background:#fff8e1;border:1px solid #e6c200;' +
      'padding:12px 16px;margin:0 0 14px 0;max-width:900px;border-radius:4px"><b>Our terms of use have changed.</b> ' +
      'You need to accept them before you can make any change. <button type="button" class="iv-review secondary">Review terms</button>' +
      '<div class="iv-terms-text" hidden><p>We updated how long we keep your requests and how we contact you. ' +
      'The full text is available on request.</p><button type="button" id="iv-terms-accept">I accept the terms</button></div></div>');
    bar.querySelector('.iv-review').addEventListener('click', () => { bar.querySelector('.iv-terms-text').hidden = false; report('terms_reviewed'); });
    bar.querySelector('#iv-terms-accept').addEventListener('click', () => { bar.hidden = true; bar.style.display = 'none'; report('terms_accepted'); });
    observe(() => { const host = document.querySelector('#app'); if (host && !bar.isConnected) host.parentNode.insertBefore(bar, host); });
    report('terms_shown');
  }
  if (plan.confirm_box) {
    let ok = false;
    const box = el('<div id="iv-prereq" style="margin:8px 0;max-width:600px"><details id="iv-more-options"><summary>More options</summary>' +
      '<label class="iv" style="display:block;margin:8px 0"><input type="checkbox" id="iv-confirm"> I confirm these details are correct</label></details>' +
      '<span id="iv-confirm-ok" hidden>Confirmed.</span><p id="iv-confirm-msg" role="alert" hidden>Please confirm the details under More options first.</p></div>');
    box.querySelector('#iv-confirm').addEventListener('change', (e) => {
      ok = e.target.checked;
      box.querySelector('#iv-confirm-ok').hidden = !ok;
      if (ok) { box.querySelector('#iv-confirm-msg').hidden = true; report('prerequisite_met'); }
    });
    besideFirst(box, plan.confirm_box.selector);
    window.addEventListener('click', (e) => {
      if (ok || !target(e, plan.confirm_box.selector)) return;
      e.stopImmediatePropagation();
      e.preventDefault();
      box.querySelector('#iv-confirm-msg').hidden = false;
      report('prerequisite_missing');
    }, true);
  }
  if (plan.restrict) {
    const sel = plan.restrict.selector;
    css(sel + ' { display: none !important; } html.iv-more-open ' + sel + ' { display: inline-block !important; }');
    const more = el('<button type="button" class="iv-more secondary" aria-haspopup="true">More actions</button>');
    more.addEventListener('click', () => { document.documentElement.classList.add('iv-more-open'); more.hidden = true; more.style.display = 'none'; report('menu_opened'); });
    besideFirst(more, sel);
    report('action_hidden');
  }
  if (plan.broken_layout) {
    css('#app .fields { grid-template-columns: 70px 120px !important; } #app .fields label { white-space: nowrap; font-size: 15px; }' +
      ' ' + plan.broken_layout.selector + ' { margin-top: ' + plan.broken_layout.push_px + 'px !important; }');
    report('layout_broken');
  }
  if (plan.cookies) {
    const sheet = el('<div id="iv-cookies" role="dialog" aria-label="Cookie consent" style="position:fixed;left:0;right:0;bottom:0;' +
      'height:' + plan.cookies.height_vh + 'vh;background:#fff;border-top:3px solid #0f3b63;box-shadow:0 -6px 24px rgba(0,0,0,.25);' +
      'z-index:9998;padding:28px 40px;font-size:16px"><h2 style="margin-top:0;color:#0f3b63">We value your privacy</h2>' +
      '<p>We use cookies to remember your settings and to measure how our pages are used. Choose what you allow.</p>' +
      '<button type="button" class="iv-accept">Accept all</button> <button type="button" class="iv-reject secondary">Only necessary</button></div>');
    for (const [cls, choice] of [['.iv-accept', 'all'], ['.iv-reject', 'necessary']]) {
      sheet.querySelector(cls).addEventListener('click', () => { sheet.hidden = true; sheet.style.display = 'none'; report('cookies_chosen', {choice}); });
    }
    document.body.appendChild(sheet);
    report('cookies_shown');
  }
  if (plan.confirm) {
    let pass = false;
    const dlg = el('<div id="iv-confirm-dialog" role="dialog" aria-label="Confirm" hidden style="position:fixed;inset:0;background:rgba(15,59,99,.45);' +
      'z-index:9999;align-items:center;justify-content:center"><div style="background:#fff;padding:26px 32px;border-radius:8px;max-width:480px;font-size:16px">' +
      '<h2 style="margin-top:0;color:#0f3b63">Send this change?</h2><p>Please confirm that you want to go ahead.</p>' +
      '<button type="button" class="iv-yes">Yes, continue</button> <button type="button" class="iv-no secondary">Go back</button></div></div>');
    let pending = null;
    const close = () => { dlg.hidden = true; dlg.style.display = 'none'; };
    dlg.querySelector('.iv-yes').addEventListener('click', () => { close(); report('confirmed'); const t = pending; pending = null; if (t && t.isConnected) { pass = true; t.click(); } });
    dlg.querySelector('.iv-no').addEventListener('click', () => { close(); pending = null; report('declined'); });
    document.body.appendChild(dlg);
    window.addEventListener('click', (e) => {
      const t = target(e, plan.confirm.selector);
      if (!t) return;
      if (pass) { pass = false; return; }
      e.stopImmediatePropagation();
      e.preventDefault();
      pending = t;
      dlg.hidden = false;
      dlg.style.display = 'flex';
      report('confirm_asked');
    }, true);
  }
}
if (typeof module === 'object' && module.exports) module.exports = wfApplyIvPlan;
else wfApplyIvPlan(window.__IV_PLAN__);
