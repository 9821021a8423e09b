// The address book (add, edit, make default, delete; the default cannot be deleted) and the
// buyer's messages from sellers and the shop (opening one marks it read).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {Linked, changed} from './changed.js';

const COUNTRIES = ['United Kingdom', 'Ireland', 'France', 'Germany', 'Netherlands', 'Spain', 'Sweden', 'United States'];
const EMPTY = {name: '', street: '', city: '', postcode: '', country: 'United Kingdom'};

function AddressForm({initial, editing, onSave, onCancel}) {
  const [form, setForm] = useState(initial);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const field = (k, label) => (
    <>
      <label htmlFor={'addr-' + k} className="lbl">{label}</label>
      <input id={'addr-' + k} type="text" autoComplete="off" value={form[k]} onChange={set(k)} />
    </>
  );
  return (
    <div id="address-form" className="fields">
      <h2 className="full">{editing ? 'Edit address' : 'Add a new address'}</h2>
      {field('name', 'Full name')}
      {field('street', 'Street address')}
      {field('city', 'Town or city')}
      {field('postcode', 'Postcode')}
      <label htmlFor="addr-country" className="lbl">Country</label>
      <select id="addr-country" value={form.country} onChange={set('country')}>
        {COUNTRIES.map((c) => <option key={c} value={c}>{c}</option>)}
      </select>
      <div className="mod-buttons">
        <button type="button" id="addr-save" onClick={() => onSave(form)}>{editing ? 'Save changes' : 'Add address'}</button>{' '}
        <button type="button" id="addr-cancel" className="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

export function Addresses() {
  const {call, toast} = useWF();
  const [list, setList] = useState(null);
  const [editing, setEditing] = useState(null); // null: no form; 'new'; or an address id
  const reload = useCallback(async () => {
    const d = await call('GET', '/addresses');
    if (d) setList(d.addresses);
    return d ? d.addresses : null;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const act = async (path, body) => {
    const d = await call('POST', path, body);
    if (!d) return null;
    const fresh = await reload();
    changed();
    return {d, fresh};
  };
  // The form stays open until the re-read list shows the address saved (one the server did not
  // keep can be sent again as it was).
  const save = async (form) => {
    const got = await act(editing === 'new' ? '/addresses' : '/addresses/' + editing, form);
    if (!got) return;
    const kept = (got.fresh || []).some((a) => (editing === 'new' ? a.id === got.d.id : a.id === editing)
      && a.street === form.street && a.name === form.name);
    if (kept) setEditing(null);
    toast(got.d.message, got.d.id);
  };
  const simple = async (path) => {
    const got = await act(path, {});
    if (got) toast(got.d.message);
  };
  if (!list) return <p className="muted">Loading your addresses…</p>;
  const current = editing && editing !== 'new' ? list.find((a) => a.id === editing) : null;
  return (
    <section id="addresses">
      <h1>Your addresses</h1>
      <p id="address-count" className="muted">{list.length} {list.length === 1 ? 'address' : 'addresses'}</p>
      <p><button type="button" id="add-address" onClick={() => setEditing('new')}>Add address</button></p>
      {editing ? (
        <AddressForm key={editing} editing={Boolean(current)} onCancel={() => setEditing(null)} onSave={save}
          initial={current ? {name: current.name, street: current.street, city: current.city, postcode: current.postcode, country: current.country} : EMPTY} />
      ) : null}
      <div className="address-grid">{list.map((a) => (
        <div key={a.id} className="address" data-id={a.id}>
          {a.default ? <span className="default-badge">Default</span> : null}
          <b className="name">{a.name}</b>
          <div className="street">{a.street}</div>
          <div className="city-line">{a.city} {a.postcode}</div>
          <div className="country">{a.country}</div>
          <div className="addr-actions">
            <button type="button" className="edit linkish" onClick={() => setEditing(a.id)}>Edit</button>
            {!a.default ? <> | <button type="button" className="delete linkish" onClick={() => simple(`/addresses/${a.id}/delete`)}>Remove</button>
              {' | '}<button type="button" className="make-default linkish" onClick={() => simple(`/addresses/${a.id}/default`)}>Set as default</button></> : null}
          </div>
        </div>
      ))}</div>
    </section>
  );
}

export function Messages({open}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/messages');
    if (d) setList(d.messages);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const markRead = useCallback(async (mid) => {
    const d = await call('POST', `/messages/${mid}/read`, {});
    if (d) { await reload(); changed(); }
  }, [call, reload]);
  // Opening a message marks it read; Open again on one the server still shows unread retries.
  const unread = Boolean(open && list && list.some((x) => x.id === open && !x.read));
  useEffect(() => {
    if (unread) markRead(open);
  }, [unread, open, markRead]);
  if (!list) return <p className="muted">Loading messages…</p>;
  const shown = list.find((x) => x.id === open);
  return (
    <section id="messages-view">
      <h1>Messages</h1>
      <table id="messages" className="data">
        <thead><tr><th>From</th><th>Subject</th><th>Received</th></tr></thead>
        <tbody>{list.map((m) => (
          <tr key={m.id} data-id={m.id} className={m.read ? 'read' : 'unread'}>
            <td>{m.sender}</td>
            <td><button type="button" className="open linkish" onClick={() => (m.id === open ? markRead(m.id) : go('#/messages/' + m.id))}>{m.read ? '' : '● '}{m.subject}</button></td>
            <td>{m.created.slice(0, 16).replace('T', ' ')}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? (
        <div id="message" data-id={shown.id}>
          <h2>{shown.subject}</h2><p className="muted">From {shown.sender}</p><p className="m-body"><Linked text={shown.body} /></p>
        </div>
      ) : null}
    </section>
  );
}
