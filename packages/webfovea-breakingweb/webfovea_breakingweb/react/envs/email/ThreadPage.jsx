// One conversation: its messages (a forwarded one quoted below the note), opened as read; the
// toolbar (back, archive or move to Inbox, delete or restore, mark unread, star), its labels
// (remove one, apply another), and Reply / Forward boxes under the last message. Every write
// re-reads it, and the page stays on it (as a webmail that does not auto-advance), so what it
// draws after an archive is what the server holds; only "Mark as unread" goes back to the
// inbox, or opening would mark it read again.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {StarButton, when} from './ThreadList.jsx';

// Text with its web addresses as links, as a webmail draws a message (a phishing mail's link too).
function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

function MessageCard({m, quoted}) {
  const q = m.forwarded ? quoted[m.forwarded] : null;
  return (
    <article className="message" data-id={m.id}>
      <header><b className="from">{m.sender_name}</b> <span className="addr">&lt;{m.sender}&gt;</span>
        <span className="when">{when(m.created)}</span></header>
      <p className="to muted">to {m.to}{m.cc ? ', cc ' + m.cc : ''}</p>
      <div className="m-body"><Linked text={m.body} /></div>
      {q ? (
        <blockquote className="quoted">---------- Forwarded message ----------<br />From: {q.sender_name} &lt;{q.sender}&gt;<br />
          Subject: {q.subject}<br /><br /><Linked text={q.body} /></blockquote>
      ) : null}
    </article>
  );
}

// Reply or forward. The draft is kept until the re-read conversation shows the message, so one
// the server did not keep can be sent again as it was.
function Respond({tid, kind, onDone, onCancel}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({to: '', body: ''});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', `/threads/${tid}/${kind}`, kind === 'reply' ? {body: form.body} : form);
    if (!d) return;
    if (await onDone(d.id)) setForm({to: '', body: ''});
    toast(d.message, d.id);
  };
  if (kind === 'reply') {
    return (
      <div id="reply-box" className="respond">
        <label htmlFor="reply-body">Your reply</label>
        <textarea id="reply-body" rows={5} value={form.body} onChange={set('body')} />
        <p><button type="button" id="reply-send" disabled={!form.body.trim()} onClick={send}>Send</button>{' '}
          <button type="button" className="secondary" id="reply-cancel" onClick={onCancel}>Discard</button></p>
      </div>
    );
  }
  return (
    <div id="forward-box" className="respond">
      <div className="fields">
        <label htmlFor="fwd-to" className="lbl">To</label><input id="fwd-to" type="text" value={form.to} onChange={set('to')} />
        <label htmlFor="fwd-body" className="lbl">Note</label><textarea id="fwd-body" rows={3} value={form.body} onChange={set('body')} />
      </div>
      <p><button type="button" id="fwd-send" disabled={!form.to.trim()} onClick={send}>Send</button>{' '}
        <button type="button" className="secondary" id="fwd-cancel" onClick={onCancel}>Discard</button></p>
    </div>
  );
}

function LabelTools({thread, labels, reload}) {
  const {call, toast} = useWF();
  const [choice, setChoice] = useState('');
  const apply = async (label, on) => {
    const d = await call('POST', `/threads/${thread.id}/labels`, {label, on});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.thread.labels.includes(label) === on) setChoice('');
    toast(d.message);
  };
  const free = labels.filter((l) => !thread.labels.includes(l.name));
  return (
    <div id="t-labels">
      {thread.labels.map((l) => (
        <span key={l} className="chip" data-label={l}>{l} <button type="button" className="unlabel linkish" aria-label={'Remove label ' + l} onClick={() => apply(l, false)}>×</button></span>
      ))}
      <label htmlFor="t-label" className="sr">Add a label</label>
      <select id="t-label" value={choice} onChange={(e) => setChoice(e.target.value)}>
        <option value="">Label as…</option>
        {free.map((l) => <option key={l.id} value={l.name}>{l.name}</option>)}
      </select>{' '}
      <button type="button" id="t-label-apply" disabled={!choice} onClick={() => apply(choice, true)}>Apply</button>
    </div>
  );
}

export function ThreadPage({tid}) {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const [labels, setLabels] = useState([]);
  const [open, setOpen] = useState(null); // 'reply' | 'forward' | null
  const reload = useCallback(async () => {
    const d = await call('GET', '/threads/' + tid);
    if (d) setData(d);
    return d;
  }, [call, tid]);
  useEffect(() => { reload(); call('GET', '/labels').then((d) => d && setLabels(d.labels)); }, [reload, call]);
  const unread = Boolean(data && !data.thread.read);
  useEffect(() => {
    if (unread) call('POST', `/threads/${tid}/read`, {on: true}).then((d) => d && reload());
  }, [unread, tid, call, reload]);
  if (!data) return <p className="muted">Loading the conversation…</p>;
  const t = data.thread;
  const act = async (path, body, leave) => {
    const d = await call('POST', `/threads/${tid}/${path}`, body);
    if (!d) return;
    if (leave) { toast(d.message); go('#/inbox'); return; }
    await reload();
    toast(d.message);
  };
  const shown = async (id) => {
    const fresh = await reload();
    const ok = Boolean(fresh && fresh.messages.some((m) => m.id === id));
    if (ok) setOpen(null);
    return ok;
  };
  return (
    <section id="thread" className={t.read ? 'read' : 'unread'} data-id={t.id}>
      <div id="t-toolbar" role="toolbar" aria-label="Conversation">
        <a id="t-back" href="#/inbox">← Back</a>
        {t.inbox ? <button type="button" id="t-archive" onClick={() => act('archive', {on: true}, false)}>Archive</button>
          : <button type="button" id="t-inbox" onClick={() => act('archive', {on: false}, false)}>Move to Inbox</button>}
        {t.trashed ? <button type="button" id="t-restore" onClick={() => act('trash', {on: false}, false)}>Restore</button>
          : <button type="button" id="t-trash" onClick={() => act('trash', {on: true}, false)}>Delete</button>}
        <button type="button" id="t-unread" onClick={() => act('read', {on: false}, true)}>Mark as unread</button>
        <StarButton thread={t} reread={reload} />
      </div>
      <h1 id="t-subject">{t.subject}</h1>
      <LabelTools thread={t} labels={labels} reload={reload} />
      <div id="messages">{data.messages.map((m) => <MessageCard key={m.id} m={m} quoted={data.quoted} />)}</div>
      {data.messages.length === 0 ? <p className="muted">This conversation has no messages.</p> : null}
      {open ? <Respond key={open} tid={tid} kind={open} onDone={shown} onCancel={() => setOpen(null)} /> : (
        <p className="respond-buttons"><button type="button" id="reply" onClick={() => setOpen('reply')}>Reply</button>{' '}
          <button type="button" id="forward" onClick={() => setOpen('forward')}>Forward</button></p>
      )}
    </section>
  );
}
