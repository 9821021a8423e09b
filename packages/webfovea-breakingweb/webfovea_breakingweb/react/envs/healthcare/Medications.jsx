// Medications: your prescriptions with refills left, refill requests, and the refill page
// (the pharmacy, preferred one first chosen, and a note).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {day} from './format.js';

function useMedications() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/medications');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  return [data, reload];
}

function pharmacyName(data, id) {
  const ph = data.pharmacies.find((x) => x.id === id);
  return ph ? ph.name : id;
}

export function Medications() {
  const [data] = useMedications();
  if (!data) return <p className="muted">Loading your medications…</p>;
  const drug = (rid) => (data.prescriptions.find((x) => x.id === rid) || {}).drug || rid;
  return (
    <section id="medications">
      <h1>Medications</h1>
      <table id="prescriptions" className="data">
        <thead><tr><th>Medication</th><th>Directions</th><th>Prescribed by</th><th>Refills left</th><th>Last filled</th><th /></tr></thead>
        <tbody>{data.prescriptions.map((rx) => (
          <tr key={rx.id} data-id={rx.id}>
            <td className="drug"><b>{rx.drug}</b></td><td>{rx.directions}</td><td>{rx.prescriber_name}</td>
            <td className="refills">{rx.refills_left}</td><td>{day(rx.last_filled)}</td>
            <td>{rx.refills_left > 0
              ? <button type="button" className="refill" onClick={() => go(`#/medications/${rx.id}/refill`)}>Request refill</button>
              : <span className="muted small">No refills left — message your provider</span>}</td>
          </tr>
        ))}</tbody>
      </table>
      <h2>Refill requests</h2>
      <ul id="refill-requests">{data.refills.map((f) => (
        <li key={f.id} data-id={f.id}>{drug(f.prescription)} at {pharmacyName(data, f.pharmacy)} — {f.status}{f.note ? ` (“${f.note}”)` : ''}</li>
      ))}</ul>
      {data.refills.length ? null : <p className="muted">No refill requests yet.</p>}
    </section>
  );
}

export function RefillRequest({rid}) {
  const {call, toast} = useWF();
  const [data, reload] = useMedications();
  const [form, setForm] = useState(null);
  useEffect(() => { if (data && !form) setForm({pharmacy: data.preferred, note: ''}); }, [data, form]);
  if (!data || !form) return <p className="muted">Loading…</p>;
  const rx = data.prescriptions.find((x) => x.id === rid);
  if (!rx) return <p id="not-found">No prescription {rid}. <a href="#/medications">Back to medications</a></p>;
  const send = async () => {
    const d = await call('POST', `/prescriptions/${rid}/refill`, form);
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.refills.some((f) => f.id === d.id)) go('#/medications');
    toast(d.message, d.id);
  };
  return (
    <section id="refill-view">
      <h1>Request a refill</h1>
      <div className="panel"><p><b>{rx.drug}</b></p><p>{rx.directions}</p><p className="muted">{rx.refills_left} refills left · prescribed by {rx.prescriber_name}</p></div>
      <div className="fields">
        <label htmlFor="refill-pharmacy" className="lbl">Pharmacy</label>
        <select id="refill-pharmacy" value={form.pharmacy} onChange={(e) => setForm({...form, pharmacy: e.target.value})}>
          {data.pharmacies.map((ph) => <option key={ph.id} value={ph.id}>{ph.name} — {ph.address}</option>)}
        </select>
        <label htmlFor="refill-note" className="lbl">Note for the care team (optional)</label>
        <textarea id="refill-note" rows={3} value={form.note} onChange={(e) => setForm({...form, note: e.target.value})} />
      </div>
      <p><button type="button" id="refill-submit" onClick={send}>Request refill</button> <a href="#/medications">Back</a></p>
    </section>
  );
}
