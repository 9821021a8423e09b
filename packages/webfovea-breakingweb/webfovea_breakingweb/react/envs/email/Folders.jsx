// The drafts folder (open one to go on writing it, or discard it) and the labels page (every
// label with its conversations; create a new one).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {when} from './ThreadList.jsx';

export function Drafts() {
  const {call, toast} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/drafts');
    if (d) setList(d.drafts);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const discard = async (id) => {
    const d = await call('POST', `/drafts/${id}/delete`);
    if (d) { await reload(); toast(d.message); }
  };
  if (!list) return <p className="muted">Loading drafts…</p>;
  return (
    <section>
      <h1>Drafts</h1>
      {list.length === 0 ? <p id="empty" className="muted">No drafts.</p> : null}
      <table id="drafts">
        <tbody>{list.map((x) => (
          <tr key={x.id} className="draft" data-id={x.id}>
            <td className="who">{x.to || '(no recipient)'}</td>
            <td><a className="open" href={'#/compose?draft=' + x.id}>{x.subject || '(no subject)'}</a>
              <span className="snippet"> — {x.body.slice(0, 80)}</span></td>
            <td className="when">{when(x.saved)}</td>
            <td><button type="button" className="discard linkish" onClick={() => discard(x.id)}>Discard</button></td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}

export function Labels() {
  const {call, toast} = useWF();
  const [labels, setLabels] = useState(null);
  const [name, setName] = useState('');
  const reload = useCallback(async () => {
    const d = await call('GET', '/labels');
    if (d) setLabels(d.labels);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const create = async () => {
    const d = await call('POST', '/labels', {name});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.labels.some((l) => l.id === d.id)) setName('');
    toast(d.message, d.id);
  };
  if (!labels) return <p className="muted">Loading labels…</p>;
  return (
    <section>
      <h1>Labels</h1>
      <table id="labels-table">
        <thead><tr><th>Label</th><th>Unread</th></tr></thead>
        <tbody>{labels.map((l) => (
          <tr key={l.id} data-name={l.name}><td><a href={'#/label/' + encodeURIComponent(l.name)}>{l.name}</a></td><td>{l.unread}</td></tr>
        ))}</tbody>
      </table>
      <h2>Create a label</h2>
      <div className="fields">
        <label htmlFor="label-name" className="lbl">Label name</label>
        <input id="label-name" type="text" value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <p><button type="button" id="label-create" disabled={!name.trim()} onClick={create}>Create</button></p>
    </section>
  );
}
