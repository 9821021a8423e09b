// Private messages: inbox and sent, opening one marks it read, and a compose form. The list's
// link marks a message read before it opens it, and stays on the list when that fails: clicking
// again tries again (a mark sent only when the message opened could not be sent twice).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

export function Messages({folder, open}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/messages?folder=' + folder);
    if (d) setList(d.messages);
  }, [call, folder]);
  useEffect(() => { reload(); }, [reload]);
  const unread = Boolean(open && list && list.some((x) => x.id === open && !x.read));
  useEffect(() => {
    if (unread) call('POST', `/messages/${open}/read`, {}).then((d) => d && reload());
  }, [unread, open, call, reload]);
  const base = '#/messages' + (folder === 'sent' ? '/sent' : '/inbox');
  const openMessage = async (m) => {
    if (folder === 'inbox' && !m.read) {
      const d = await call('POST', `/messages/${m.id}/read`, {});
      if (!d) return;
      await reload();
    }
    go(base + '/' + m.id);
  };
  if (!list) return <p className="muted">Loading messages…</p>;
  const shown = list.find((x) => x.id === open);
  return (
    <section id="messages-view">
      <h1>Messages</h1>
      <p><a href="#/messages/inbox" id="msg-inbox">Inbox</a> · <a href="#/messages/sent" id="msg-sent">Sent</a> · <a href="#/messages/new" id="msg-new">New message</a></p>
      <table id="messages" className="data">
        <thead><tr><th>{folder === 'sent' ? 'To' : 'From'}</th><th>Subject</th><th>Sent</th></tr></thead>
        <tbody>{list.map((m) => (
          <tr key={m.id} data-id={m.id} className={m.read ? 'read' : 'unread'}>
            <td>u/{folder === 'sent' ? m.recipient : m.sender}</td>
            <td><button type="button" className="open linkish" onClick={() => openMessage(m)}>{m.read ? '' : '● '}{m.subject}</button></td>
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

export function SentList({sent}) {
  return (
    <table id="sent-list" className="data">
      <caption>Sent messages</caption>
      <thead><tr><th>To</th><th>Subject</th></tr></thead>
      <tbody>{sent.map((m) => <tr key={m.id} data-id={m.id}><td>u/{m.recipient}</td><td>{m.subject}</td></tr>)}</tbody>
    </table>
  );
}

// A new message; your sent messages are re-read below it, and the draft is kept until the
// message shows there (one the server did not keep can be sent again as it was).
export function Compose({to}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({to, subject: '', body: ''});
  const [sent, setSent] = useState([]);
  const reread = useCallback(async () => {
    const d = await call('GET', '/messages?folder=sent');
    if (d) setSent(d.messages);
    return d ? d.messages : [];
  }, [call]);
  useEffect(() => { reread(); }, [reread]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', '/messages', form);
    if (!d) return;
    if ((await reread()).some((m) => m.id === d.id)) setForm({to: '', subject: '', body: ''});
    toast(d.message, d.id);
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
      <SentList sent={sent} />
    </section>
  );
}
