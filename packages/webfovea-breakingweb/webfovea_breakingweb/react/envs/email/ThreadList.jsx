// A list of conversations (a folder, a label or the search's results): select rows with their
// checkboxes and archive, mark read or unread, or trash them together; star a row; open one.
// After a write the list is read again from the server, so what is drawn is what it holds, and
// the rows still listed stay selected (one the server did not change can be sent again).
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

const TITLES = {inbox: 'Inbox', starred: 'Starred', sent: 'Sent', all: 'All mail', trash: 'Trash'};

export function when(stamp) {
  return stamp.slice(0, 16).replace('T', ' ');
}

export function StarButton({thread, reread}) {
  const {call, toast} = useWF();
  const flip = async () => {
    const d = await call('POST', `/threads/${thread.id}/star`, {on: !thread.starred});
    if (d) { await reread(); toast(d.message); }
  };
  return (
    <button type="button" className="star" aria-label={thread.starred ? 'Starred' : 'Not starred'} aria-pressed={thread.starred}
      onClick={flip}>{thread.starred ? '★' : '☆'}</button>
  );
}

function Row({t, picked, onPick, reread, folder}) {
  return (
    <tr className={'thread ' + (t.read ? 'read' : 'unread') + (t.inbox ? ' in-inbox' : ' archived')} data-id={t.id}>
      <td><input type="checkbox" className="pick" aria-label={'Select “' + t.subject + '”'} checked={picked} onChange={() => onPick(t.id)} /></td>
      <td><StarButton thread={t} reread={reread} /></td>
      <td className="who">{t.correspondent}{t.count > 1 ? <span className="n"> {t.count}</span> : null}</td>
      <td className="what">
        {folder !== 'inbox' && t.inbox && !t.trashed ? <span className="chip inbox-chip">Inbox</span> : null}
        {t.labels.map((l) => <span key={l} className="chip">{l}</span>)}
        <a className="subject" href={'#/t/' + t.id}>{t.subject}</a>
        <span className="snippet"> — {t.snippet}</span>
      </td>
      <td className="when">{when(t.last)}</td>
    </tr>
  );
}

export function ThreadList({folder, label, q}) {
  const {call, toast} = useWF();
  const [threads, setThreads] = useState(null);
  const [picked, setPicked] = useState([]);
  const reload = useCallback(async () => {
    const d = await call('GET', '/threads' + qs({folder, label, q}));
    if (d) setThreads(d.threads);
    return d;
  }, [call, folder, label, q]);
  useEffect(() => { reload(); }, [reload]);
  const pick = (id) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  const all = threads !== null && threads.length > 0 && picked.length === threads.length;
  const bulk = async (action) => {
    const d = await call('POST', '/threads/bulk', {ids: picked, action});
    if (!d) return;
    // As a webmail keeps them: the rows still listed stay selected (an archived row leaves).
    const fresh = await reload();
    const listed = new Set(fresh ? fresh.threads.map((t) => t.id) : []);
    setPicked((p) => p.filter((id) => listed.has(id)));
    toast(d.message);
  };
  const title = q !== undefined ? `Search: “${q}”` : label ? label : TITLES[folder];
  const none = picked.length === 0;
  return (
    <section id="list">
      <h1 id="list-title">{title}</h1>
      <div id="toolbar" role="toolbar" aria-label="Selected conversations">
        <input type="checkbox" id="select-all" aria-label="Select all" checked={all}
          onChange={() => setPicked(all || !threads ? [] : threads.map((t) => t.id))} />
        {folder === 'trash' ? null : <button type="button" id="bulk-archive" disabled={none} onClick={() => bulk('archive')}>Archive</button>}
        {folder === 'inbox' ? null : <button type="button" id="bulk-inbox" disabled={none} onClick={() => bulk('inbox')}>Move to Inbox</button>}
        <button type="button" id="bulk-read" disabled={none} onClick={() => bulk('read')}>Mark as read</button>
        <button type="button" id="bulk-unread" disabled={none} onClick={() => bulk('unread')}>Mark as unread</button>
        {folder === 'trash' ? null : <button type="button" id="bulk-trash" disabled={none} onClick={() => bulk('trash')}>Delete</button>}
        <span className="muted" id="picked">{picked.length ? picked.length + ' selected' : ''}</span>
      </div>
      {threads === null ? <p className="muted">Loading…</p> : threads.length === 0 ? (
        <p id="empty" className="muted">No conversations here.</p>
      ) : (
        <table id="threads" data-count={threads.length}>
          <tbody>{threads.map((t) => (
            <Row key={t.id} t={t} picked={picked.includes(t.id)} onPick={pick} reread={reload} folder={folder} />
          ))}</tbody>
        </table>
      )}
      <p id="list-info" className="muted">{threads ? threads.length + ' conversations' : ''}</p>
      {q !== undefined && threads && threads.length === 0 ? <button type="button" className="secondary" onClick={() => go('#/inbox')}>Back to Inbox</button> : null}
    </section>
  );
}
