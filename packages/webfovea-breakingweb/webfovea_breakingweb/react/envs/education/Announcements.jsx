// Announcements: the list (every course's, or one course's tab) and one announcement, which
// is marked read when it is opened (from the list, or by its address).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {when} from './util.js';

// Text with its web addresses as links, as an LMS draws a post (a phishing notice's link too).
export function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

// Opening an unread announcement from the list marks it read first: a mark the server refused
// leaves you on the list with the error, where the same link tries again.
export function AnnRows({list}) {
  const {call} = useWF();
  const open = async (e, n) => {
    e.preventDefault();
    if (!n.read && !(await call('POST', `/announcements/${n.id}/read`, {}))) return;
    go('#/announcements/' + n.id);
  };
  return (
    <ul id="announcements">{list.map((n) => (
      <li key={n.id} className={'ann ' + (n.read ? 'read' : 'unread')} data-id={n.id}>
        {n.read ? '' : <span className="dot" aria-label="unread">● </span>}<a className="title" href={'#/announcements/' + n.id} onClick={(e) => open(e, n)}>{n.title}</a>
        <span className="muted"> · {n.course_code} · {n.author} · {when(n.posted)}</span>
      </li>
    ))}</ul>
  );
}

export function AnnouncementList() {
  const {call} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', '/announcements').then((d) => d && setList(d.announcements)); }, [call]);
  return (
    <section>
      <h1>Announcements</h1>
      {list ? <AnnRows list={list} /> : <p className="muted">Loading…</p>}
    </section>
  );
}

export function Announcement({nid}) {
  const {call} = useWF();
  const [n, setN] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/announcements');
    if (d) setN(d.announcements.find((x) => x.id === nid) || false);
  }, [call, nid]);
  useEffect(() => { reload(); }, [reload]);
  const unread = Boolean(n && !n.read);
  useEffect(() => {
    if (unread) call('POST', `/announcements/${nid}/read`, {}).then((d) => d && reload());
  }, [unread, nid, call, reload]);
  if (n === null) return <p className="muted">Loading…</p>;
  if (n === false) return <p id="not-found">No announcement {nid}.</p>;
  return (
    <article id="announcement" data-id={n.id} className={n.read ? 'read' : 'unread'}>
      <p className="crumbs"><a href={`#/courses/${n.course}/announcements`}>{n.course_code}</a> · Announcement</p>
      <h1>{n.title}</h1>
      <p className="muted">{n.author} · {when(n.posted)}</p>
      <div className="a-body"><Linked text={n.body} /></div>
    </article>
  );
}
