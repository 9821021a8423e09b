"""The viewer's only script, served as /static/view.js (the pages hold no inline script).

It loads a task's request evidence when its section is opened (the capture is read then, not
when the task opens) and remembers the labeller's name in the browser between labels.
"""

VIEW_JS = """
document.addEventListener('DOMContentLoaded', () => {
  const who = document.getElementById('labeller');
  if (who) {
    if (!who.value) who.value = localStorage.getItem('webfovea-labeller') || '';
    who.form.addEventListener('submit', () => localStorage.setItem('webfovea-labeller', who.value));
  }
  const ev = document.getElementById('requests');
  if (ev) {
    ev.addEventListener('toggle', async () => {
      if (!ev.open || ev.dataset.loaded) return;
      ev.dataset.loaded = '1';
      const body = ev.querySelector('.body');
      body.textContent = 'reading capture.json...';
      const r = await fetch(ev.dataset.src);
      body.innerHTML = await r.text();  // server-rendered, every string escaped
    });
  }
});
"""
