// Messages with the care team: inbox and sent, opening one marks it read, a reply under the open
// message, and a new message to a provider. Drafts are kept until the re-read sent folder shows
// the message (one the server did not keep can be sent again as it was).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {when, providerLabel} from './format.js';

// Text with its web addresses as links, as a portal draws a message (a phishing link too).
function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

function ReplyBox({message, onSent}) {
  const {call, toast} = useWF();
  const [text, setText] = useState('');
  const send = async () => {
    const d = await call('POST', `/messages/${message.id}/reply`, {body: text});
    if (!d) return;
    const sent = await call('GET', '/messages?folder=sent');
    if (sent && sent.messages.some((m) => m.id === d.id)) { setText(''); onSent(); }
    toast(d.message, d.id);
  };
  return (
    <div id="reply-form">
      <label htmlFor="reply-body" className="lbl">Your reply to {message.sender}</label>
      <textarea id="reply-body" rows={4} value={text} onChange={(e) => setText(e.target.value)} />
      <p><button type="button" id="reply-send" disabled={!text.trim()} onClick={send}>Send reply</button></p>
    </div>
  );
}

export function Messages({folder, open}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  const [sent, setSent] = useState([]);
  const [replying, setReplying] = useState(false);
  const reload = useCallback(async () => {
    const d = await call('GET', '/messages?folder=' + folder);
    if (d) setList(d.messages);
    if (folder === 'inbox') {
      const s = await call('GET', '/messages?folder=sent');
      if (s) setSent(s.messages);
    }
  }, [call, folder]);
  useEffect(() => { reload(); }, [reload]);
  useEffect(() => { setReplying(false); }, [open]);
  const unread = Boolean(open && list && list.some((x) => x.id === open && !x.read));
  useEffect(() => {
    if (unread) call('POST', `/messages/${open}/read`, {}).then((d) => d && reload());
  }, [unread, open, call, reload]);
  if (!list) return <p className="muted">Loading messages…</p>;
  const shown = list.find((x) => x.id === open);
  const base = '#/messages/' + folder;
  return (
    <section id="messages-view">
      <div className="head-row"><h1>Messages</h1><a href="#/messages/new" id="msg-new" className="button">New message</a></div>
      <p className="tabs"><a href="#/messages/inbox" id="msg-inbox" className={folder === 'inbox' ? 'here' : ''}>Inbox</a>
        <a href="#/messages/sent" id="msg-sent" className={folder === 'sent' ? 'here' : ''}>Sent</a></p>
      <table id="messages" className="data">
        <thead><tr><th>{folder === 'sent' ? 'To' : 'From'}</th><th>Subject</th><th>Date</th></tr></thead>
        <tbody>{list.map((m) => (
          <tr key={m.id} data-id={m.id} className={m.read ? 'read' : 'unread'}>
            <td>{folder === 'sent' ? m.recipient : m.sender}</td>
            <td><button type="button" className="open linkish" onClick={() => go(base + '/' + m.id)}>{m.read ? '' : '● '}{m.subject}</button></td>
            <td>{when(m.created)}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? (
        <article id="message" data-id={shown.id} className="panel">
          <h2>{shown.subject}</h2>
          <p className="muted">From {shown.sender} to {shown.recipient} · {when(shown.created)}</p>
          <p className="m-body"><Linked text={shown.body} /></p>
          {folder === 'inbox' && !replying ? <button type="button" id="msg-reply" onClick={() => setReplying(true)}>Reply</button> : null}
          {folder === 'inbox' && replying ? <ReplyBox message={shown} onSent={async () => { setReplying(false); await reload(); }} /> : null}
          <ul id="replies">{sent.filter((m) => m.in_reply_to === shown.id).map((m) => (
            <li key={m.id} data-id={m.id}>Your reply, {when(m.created)}: {m.body}</li>
          ))}</ul>
        </article>
      ) : null}
    </section>
  );
}

export function Compose({to, subject}) {
  const {call, toast} = useWF();
  const [providers, setProviders] = useState([]);
  const [form, setForm] = useState({to, subject, body: ''});
  const [sent, setSent] = useState([]);
  const reread = useCallback(async () => {
    const d = await call('GET', '/messages?folder=sent');
    if (d) setSent(d.messages);
    return d ? d.messages : [];
  }, [call]);
  useEffect(() => { call('GET', '/providers').then((d) => d && setProviders(d.providers)); reread(); }, [call, reread]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', '/messages', form);
    if (!d) return;
    if ((await reread()).some((m) => m.id === d.id)) setForm({to: '', subject: '', body: ''});
    toast(d.message, d.id);
  };
  return (
    <section id="compose-view">
      <h1>New message to your care team</h1>
      <div className="fields">
        <label htmlFor="msg-to" className="lbl">To</label>
        <select id="msg-to" value={form.to} onChange={set('to')}>
          <option value="">Choose a provider</option>
          {providers.map((p) => <option key={p.id} value={p.id}>{providerLabel(p)}</option>)}
        </select>
        <label htmlFor="msg-subject" className="lbl">Subject</label><input id="msg-subject" type="text" value={form.subject} onChange={set('subject')} />
        <label htmlFor="msg-body" className="lbl">Message</label><textarea id="msg-body" rows={6} value={form.body} onChange={set('body')} />
      </div>
      <p className="muted small">For an emergency, call 911. Messages are answered within two business days.</p>
      <p><button type="button" id="msg-send" disabled={!form.to || !form.subject.trim() || !form.body.trim()} onClick={send}>Send</button></p>
      <table id="sent-list" className="data">
        <caption>Sent messages</caption>
        <thead><tr><th>To</th><th>Subject</th></tr></thead>
        <tbody>{sent.map((m) => <tr key={m.id} data-id={m.id}><td>{m.recipient}</td><td>{m.subject}</td></tr>)}</tbody>
      </table>
    </section>
  );
}
