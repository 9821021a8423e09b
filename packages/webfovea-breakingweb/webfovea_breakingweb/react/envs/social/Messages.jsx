// Private messages: inbox and sent, opening one marks it read, and a compose form.
import React, {useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

export function Messages({folder, open}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', '/messages?folder=' + folder).then((d) => d && setList(d.messages)); }, [call, folder]);
  useEffect(() => {
    if (!open || !list) return;
    const m = list.find((x) => x.id === open);
    if (m && !m.read) call('POST', `/messages/${m.id}/read`, {}).then((d) => d && setList(list.map((x) => (x.id === m.id ? {...x, read: true} : x))));
  }, [open, list, call]);
  if (!list) return <p className="muted">Loading messages…</p>;
  const shown = list.find((x) => x.id === open);
  const base = '#/messages' + (folder === 'sent' ? '/sent' : '/inbox');
  return (
    <section id="messages-view">
      <h1>Messages</h1>
      <p><a href="#/messages/inbox" id="msg-inbox">Inbox</a> · <a href="#/messages/sent" id="msg-sent">Sent</a> · <a href="#/messages/new" id="msg-new">New message</a></p>
      <table id="messages" className="data">
        <thead><tr><th>{folder === 'sent' ? 'To' : 'From'}</th><th>Subject</th><th>Sent</th></tr></thead>
        <tbody>{list.map((m) => (
          <tr key={m.id} data-id={m.id} className={m.read ? 'read' : 'unread'}>
            <td>u/{folder === 'sent' ? m.recipient : m.sender}</td>
            <td><button type="button" className="open linkish" onClick={() => go(base + '/' + m.id)}>{m.read ? '' : '● '}{m.subject}</button></td>
            <td>{m.created.slice(0, 16).replace('T', ' ')}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? (
        <div id="message" data-id={shown.id}>
          <h2>{shown.subject}</h2><p className="muted">From u/{shown.sender} to u/{shown.recipient}</p><p className="m-body">{shown.body}</p>
          {folder === 'inbox' ? <a id="msg-reply" href={'#/messages/new?to=' + shown.sender}>Reply</a> : null}
        </div>
      ) : null}
    </section>
  );
}

export function Compose({to}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({to, subject: '', body: ''});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', '/messages', form);
    if (d) { setForm({to: '', subject: '', body: ''}); toast(d.message, d.id); }
  };
  return (
    <section>
      <h1>New message</h1>
      <div className="fields">
        <label htmlFor="msg-to" className="lbl">To (user name)</label><input id="msg-to" type="text" value={form.to} onChange={set('to')} />
        <label htmlFor="msg-subject" className="lbl">Subject</label><input id="msg-subject" type="text" value={form.subject} onChange={set('subject')} />
        <label htmlFor="msg-body" className="lbl">Message</label><textarea id="msg-body" rows={5} value={form.body} onChange={set('body')} />
      </div>
      <p><button type="button" id="msg-send" onClick={send}>Send</button></p>
    </section>
  );
}
