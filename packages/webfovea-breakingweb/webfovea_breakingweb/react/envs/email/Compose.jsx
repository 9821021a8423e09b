// A new message, or a saved draft opened again: To, Cc, Subject and the text; Send, or Save
// draft. The form is kept until the re-read folder (Sent, Drafts) shows what was written, then
// the page shows that folder; a message the server did not keep can be sent again as it was.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

const EMPTY = {to: '', cc: '', subject: '', body: ''};

export function Compose({draftId, to}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({...EMPTY, to});
  const [draft, setDraft] = useState(draftId);
  const [ready, setReady] = useState(!draftId);
  useEffect(() => {
    if (!draftId) return;
    call('GET', '/drafts').then((d) => {
      const held = d && d.drafts.find((x) => x.id === draftId);
      if (held) setForm({to: held.to, cc: held.cc, subject: held.subject, body: held.body});
      setReady(true);
    });
  }, [call, draftId]);
  const has = useCallback(async (folder, key, id) => {
    const d = await call('GET', folder);
    return Boolean(d && d[key].some((x) => x.id === id));
  }, [call]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', draft ? `/drafts/${draft}/send` : '/messages', form);
    if (!d) return;
    const kept = await has('/threads?folder=sent', 'threads', d.thread);
    if (kept) { setForm(EMPTY); setDraft(''); go('#/sent'); }
    toast(d.message, d.id);
  };
  const save = async () => {
    const d = await call('POST', draft ? `/drafts/${draft}` : '/drafts', form);
    if (!d) return;
    if (await has('/drafts', 'drafts', d.id)) { setDraft(d.id); go('#/drafts'); }
    toast(d.message, d.id);
  };
  const discard = async () => {
    const d = await call('POST', `/drafts/${draft}/delete`);
    if (d) { toast(d.message); go('#/drafts'); }
  };
  if (!ready) return <p className="muted">Loading the draft…</p>;
  return (
    <section id="compose-view">
      <h1>{draft ? 'Draft' : 'New message'}</h1>
      <div className="fields">
        <label htmlFor="c-to" className="lbl">To</label><input id="c-to" type="text" value={form.to} onChange={set('to')} />
        <label htmlFor="c-cc" className="lbl">Cc</label><input id="c-cc" type="text" value={form.cc} onChange={set('cc')} />
        <label htmlFor="c-subject" className="lbl">Subject</label><input id="c-subject" type="text" value={form.subject} onChange={set('subject')} />
        <label htmlFor="c-body" className="lbl">Message</label><textarea id="c-body" rows={8} value={form.body} onChange={set('body')} />
      </div>
      <p className="compose-buttons">
        <button type="button" id="c-send" disabled={!form.to.trim()} onClick={send}>Send</button>{' '}
        <button type="button" id="c-save" className="secondary" onClick={save}>Save draft</button>{' '}
        {draft ? <button type="button" id="c-discard" className="secondary" onClick={discard}>Discard draft</button> : null}
      </p>
    </section>
  );
}
