// Documents (statements, tax forms, trade confirmations: opening one marks it viewed) and the
// account's notifications (opening one marks it read).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {when} from './money.jsx';

// Text with its web addresses as links, as a message is drawn (a phishing message's link too).
function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

// A list whose opened entry is marked on the server (POST <base>/<id>/<mark>), then re-read.
// Opening the shown entry again while the re-read still says unmarked sends the mark again (a
// mark the server did not keep is not lost).
function useMarked(path, base, key, open, flag, mark) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', path);
    if (d) setList(d[key]);
  }, [call, path, key]);
  useEffect(() => { reload(); }, [reload]);
  const send = useCallback(async (id) => {
    if (await call('POST', `${base}/${id}/${mark}`, {})) await reload();
  }, [call, base, mark, reload]);
  const pending = Boolean(open && list && list.some((x) => x.id === open && !x[flag]));
  useEffect(() => {
    if (pending) send(open);
  }, [pending, open, send]);
  const openEntry = (id, hash) => {
    if (id === open) {
      if (list.some((x) => x.id === id && !x[flag])) send(id);
    } else go(hash);
  };
  return [list, openEntry];
}

const KINDS = [['statement', 'Account statements'], ['tax', 'Tax documents'], ['confirm', 'Trade confirmations']];

export function Documents({kind, open}) {
  const {call} = useWF();
  const [list, openEntry] = useMarked('/documents?kind=' + kind, '/documents', 'documents', open, 'viewed', 'view');
  const [doc, setDoc] = useState(null);
  useEffect(() => {
    if (open) call('GET', '/documents/' + open).then((d) => d && setDoc(d.document));
  }, [open, call]);
  return (
    <section>
      <h1>Documents</h1>
      <p className="tabs">{KINDS.map(([k, label]) => (
        <a key={k} id={'doc-' + k} href={'#/documents?kind=' + k} aria-current={k === kind ? 'page' : undefined}>{label}</a>
      ))}</p>
      {!list ? <p className="muted">Loading documents…</p> : (
        <table id="documents" className="data">
          <thead><tr><th>Document</th><th>Period</th><th>Issued</th><th /></tr></thead>
          <tbody>{list.map((d) => (
            <tr key={d.id} data-id={d.id} className={d.viewed ? 'viewed' : 'new'}>
              <td className="title">{d.viewed ? '' : '● '}{d.title}</td><td>{d.period}</td><td>{when(d.created)}</td>
              <td><button type="button" className="open linkish" onClick={() => openEntry(d.id, `#/documents/${d.id}?kind=${kind}`)}>Open</button></td>
            </tr>
          ))}</tbody>
        </table>
      )}
      {doc && doc.id === open ? (
        <div id="document" data-id={doc.id}><h2>{doc.title}</h2>{doc.lines.map((l, i) => <p key={i}>{l}</p>)}</div>
      ) : null}
    </section>
  );
}

export function Notifications({open}) {
  const [list, openEntry] = useMarked('/notifications', '/notifications', 'notifications', open, 'read', 'read');
  if (!list) return <p className="muted">Loading notifications…</p>;
  const shown = list.find((x) => x.id === open);
  return (
    <section>
      <h1>Notifications</h1>
      <table id="notifications" className="data">
        <thead><tr><th>From</th><th>Category</th><th>Notification</th><th>Received</th></tr></thead>
        <tbody>{list.map((n) => (
          <tr key={n.id} data-id={n.id} className={n.read ? 'read' : 'unread'}>
            <td className="sender">{n.sender}</td><td className="category">{n.category}</td>
            <td><button type="button" className="open linkish" onClick={() => openEntry(n.id, '#/notifications/' + n.id)}>{n.read ? '' : '● '}{n.title}</button></td>
            <td>{when(n.created)}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? (
        <div id="notification" data-id={shown.id}>
          <h2>{shown.title}</h2><p className="muted">From {shown.sender} · {shown.category}</p><p className="n-body"><Linked text={shown.body} /></p>
        </div>
      ) : null}
    </section>
  );
}
