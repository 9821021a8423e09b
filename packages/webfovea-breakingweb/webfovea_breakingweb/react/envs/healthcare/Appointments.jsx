// Visits: upcoming (confirm, reschedule, cancel) and past; the cancel and reschedule pages.
// Every write re-reads the list, so what is drawn is what the server holds; the cancel and
// reschedule pages go back to the list only when the re-read shows the change (otherwise they
// stay, the choice kept, so it can be sent again).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {SlotPicker} from './Slots.jsx';
import {when} from './format.js';

const REASONS = ['Schedule conflict', 'Feeling better', 'Transportation problem', 'Seeing another provider', 'Other'];

function useAppointments() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/appointments');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  return [data, reload];
}

export function Appointments() {
  const {call, toast} = useWF();
  const [data, reload] = useAppointments();
  const confirm = async (a) => {
    const d = await call('POST', `/appointments/${a.id}/confirm`, {});
    if (d) { await reload(); toast(d.message); }
  };
  if (!data) return <p className="muted">Loading your visits…</p>;
  return (
    <section id="appointments">
      <div className="head-row"><h1>Visits</h1><a id="appt-new" className="button" href="#/schedule">Schedule an appointment</a></div>
      <h2>Upcoming</h2>
      <table id="upcoming" className="data">
        <thead><tr><th>When</th><th>Provider</th><th>Type</th><th>Reason</th><th>Status</th><th /></tr></thead>
        <tbody>{data.upcoming.map((a) => (
          <tr key={a.id} data-id={a.id}>
            <td className="when">{when(a.start)}</td>
            <td>{a.provider_name}<div className="muted small">{a.specialty} · {a.location}</div></td>
            <td>{a.visit_type}</td><td className="reason">{a.reason}</td>
            <td className="status">{a.confirmed ? 'Confirmed' : 'Awaiting confirmation'}</td>
            <td className="actions">
              {!a.confirmed ? <button type="button" className="confirm" onClick={() => confirm(a)}>Confirm</button> : null}
              <button type="button" className="reschedule secondary" onClick={() => go(`#/appointments/${a.id}/reschedule`)}>Reschedule</button>
              <button type="button" className="cancel secondary" onClick={() => go(`#/appointments/${a.id}/cancel`)}>Cancel</button>
            </td>
          </tr>
        ))}</tbody>
      </table>
      {data.upcoming.length ? null : <p className="muted">No upcoming visits.</p>}
      <h2>Past and cancelled</h2>
      <table id="past" className="data">
        <thead><tr><th>When</th><th>Provider</th><th>Reason</th><th>Status</th></tr></thead>
        <tbody>{data.past.map((a) => (
          <tr key={a.id} data-id={a.id}>
            <td className="when">{when(a.start)}</td><td>{a.provider_name}</td><td>{a.reason}</td>
            <td className="status">{a.status === 'cancelled' ? `Cancelled (${a.cancel_reason})` : 'Completed'}</td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}

function Visit({a}) {
  return (
    <div id="visit" data-id={a.id} className="panel">
      <p><b>{a.provider_name}</b> — {a.specialty}</p>
      <p className="when">{when(a.start)} · {a.visit_type} · {a.location}</p>
      <p className="muted">Reason: {a.reason}</p>
    </div>
  );
}

export function CancelAppointment({aid}) {
  const {call, toast} = useWF();
  const [data, reload] = useAppointments();
  const [reason, setReason] = useState('');
  if (!data) return <p className="muted">Loading…</p>;
  const a = data.upcoming.find((x) => x.id === aid) || data.past.find((x) => x.id === aid && x.status === 'cancelled');
  if (!a) return <p id="not-found">Appointment {aid} is not an upcoming visit. <a href="#/appointments">Back to visits</a></p>;
  const send = async () => {
    const d = await call('POST', `/appointments/${aid}/cancel`, {reason});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.past.some((x) => x.id === aid)) go('#/appointments');
    toast(d.message);
  };
  return (
    <section id="cancel-view">
      <h1>Cancel appointment</h1>
      <Visit a={a} />
      <div className="fields">
        <label htmlFor="cancel-reason" className="lbl">Why are you cancelling?</label>
        <select id="cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)}>
          <option value="">Choose a reason</option>
          {REASONS.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </div>
      <p><button type="button" id="cancel-submit" className="danger" disabled={!reason} onClick={send}>Cancel appointment</button>{' '}
        <a href="#/appointments">Keep it</a></p>
    </section>
  );
}

export function Reschedule({aid}) {
  const {call, toast} = useWF();
  const [data, reload] = useAppointments();
  const [slot, setSlot] = useState('');
  if (!data) return <p className="muted">Loading…</p>;
  const a = data.upcoming.find((x) => x.id === aid);
  if (!a) return <p id="not-found">Appointment {aid} is not an upcoming visit. <a href="#/appointments">Back to visits</a></p>;
  const send = async () => {
    const d = await call('POST', `/appointments/${aid}/reschedule`, {slot});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.upcoming.some((x) => x.id === aid && x.slot === slot)) go('#/appointments');
    toast(d.message);
  };
  return (
    <section id="reschedule-view">
      <h1>Reschedule appointment</h1>
      <Visit a={a} />
      <h2>Choose a new time with {a.provider_name}</h2>
      <SlotPicker provider={a.provider} value={slot} onPick={setSlot} except={a.slot} />
      <p><button type="button" id="resched-submit" disabled={!slot} onClick={send}>Reschedule</button>{' '}
        <a href="#/appointments">Back</a></p>
    </section>
  );
}
