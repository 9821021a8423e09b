// Messages with the properties: inbox and sent (opening one marks it read), and a new message
// to a property you booked, about one booking.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

// Text with its web addresses as links, as a mail view draws them (a phishing link too).
function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

export function Messages({folder, open}) {
  const {call, unit} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => { const d = await call('GET', '/messages?folder=' + folder); if (d) setList(d.messages); }, [call, folder]);
  useEffect(() => { reload(); }, [reload]);
  const unread = Boolean(open && list && list.some((x) => x.id === open && !x.read));
  useEffect(() => {
    if (unread) call('POST', `/messages/${open}/read`, {}).then((d) => d && reload());
  }, [unread, open, call, reload]);
  if (!list) return <p className="muted">Loading messages…</p>;
  const shown = list.find((x) => x.id === open);
  const base = '#/messages/' + folder;
  return (
    <section id="messages-view">
      <h1>Messages</h1>
      <p><a href="#/messages/inbox" id="msg-inbox">Inbox</a> · <a href="#/messages/sent" id="msg-sent">Sent</a></p>
      <table id="messages" className="data">
        <thead><tr><th>{folder === 'sent' ? 'To' : 'From'}</th><th>Subject</th><th>Sent</th></tr></thead>
        <tbody>{list.map((m) => (
          <tr key={m.id} data-id={m.id} className={m.read ? 'read' : 'unread'}>
            <td className="who">{folder === 'sent' ? unit(m.property, m.property_name || m.property) : m.property ? unit(m.property, m.sender) : m.sender}</td>
            <td><button type="button" className="open linkish" onClick={() => go(base + '/' + m.id)}>{m.read ? '' : '● '}{m.subject}</button></td>
            <td>{m.created.slice(0, 16).replace('T', ' ')}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? (
        <div id="message" data-id={shown.id}>
          <h2>{shown.subject}</h2><p className="muted">From {shown.property ? unit(shown.property, shown.sender) : shown.sender}{shown.booking ? ' · booking ' + shown.booking : ''}</p>
          <p className="m-body"><Linked text={shown.body} /></p>
          {folder === 'inbox' && shown.property ? <a id="msg-reply" href={'#/messages/new?property=' + shown.property + (shown.booking ? '&booking=' + shown.booking : '')}>Reply</a> : null}
        </div>
      ) : null}
    </section>
  );
}

// A new message; the sent ones are re-read below it and the draft is kept until it shows there.
export function Compose({property, booking}) {
  const {call, toast} = useWF();
  const [trips, setTrips] = useState([]);
  const [form, setForm] = useState({property, booking, subject: '', body: ''});
  const [sent, setSent] = useState([]);
  useEffect(() => {
    call('GET', '/bookings').then((d) => d && setTrips([...d.upcoming, ...d.past, ...d.cancelled]));
  }, [call]);
  const reread = useCallback(async () => {
    const d = await call('GET', '/messages?folder=sent');
    if (d) setSent(d.messages);
    return d ? d.messages : [];
  }, [call]);
  useEffect(() => { reread(); }, [reread]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const pick = (e) => {
    const t = trips.find((x) => x.id === e.target.value);
    setForm({...form, booking: e.target.value, property: t ? t.property : ''});
  };
  const send = async () => {
    const d = await call('POST', '/messages', {...form, booking: form.booking || null});
    if (!d) return;
    if ((await reread()).some((m) => m.id === d.id)) setForm({...form, subject: '', body: ''});
    toast(d.message, d.id);
  };
  return (
    <section>
      <h1>Message a property</h1>
      <div className="fields">
        <label htmlFor="msg-booking" className="lbl">Booking</label>
        <select id="msg-booking" value={form.booking} onChange={pick}>
          <option value="">Choose a booking</option>
          {trips.map((t) => <option key={t.id} value={t.id}>{t.property_name}, {t.check_in} ({t.id})</option>)}
        </select>
        <label htmlFor="msg-subject" className="lbl">Subject</label><input id="msg-subject" type="text" value={form.subject} onChange={set('subject')} />
        <label htmlFor="msg-body" className="lbl">Message</label><textarea id="msg-body" rows={5} value={form.body} onChange={set('body')} />
      </div>
      <p><button type="button" id="msg-send" disabled={!form.property || !form.subject.trim() || !form.body.trim()} onClick={send}>Send</button></p>
      <table id="sent-list" className="data">
        <caption>Sent messages</caption>
        <thead><tr><th>Booking</th><th>Subject</th></tr></thead>
        <tbody>{sent.map((m) => <tr key={m.id} data-id={m.id}><td>{m.booking || '—'}</td><td>{m.subject}</td></tr>)}</tbody>
      </table>
    </section>
  );
}
