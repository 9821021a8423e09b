// Scheduling a visit: the provider, an open time, the visit type and the reason. The draft is
// kept until the re-read visits hold the new appointment (one the server did not keep can be
// sent again as it was); then the visits page opens.
import React, {useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {SlotPicker} from './Slots.jsx';
import {providerLabel} from './format.js';

export function Schedule({provider}) {
  const {call, toast} = useWF();
  const [providers, setProviders] = useState([]);
  const [form, setForm] = useState({provider, slot: '', visit_type: '', reason: ''});
  useEffect(() => { call('GET', '/providers').then((d) => d && setProviders(d.providers)); }, [call]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const ready = form.provider && form.slot && form.visit_type && form.reason.trim();
  const send = async () => {
    const d = await call('POST', '/appointments', form);
    if (!d) return;
    const fresh = await call('GET', '/appointments');
    if (fresh && fresh.upcoming.some((a) => a.id === d.id)) go('#/appointments');
    toast(d.message, d.id);
  };
  return (
    <section id="schedule-view">
      <h1>Schedule an appointment</h1>
      <div className="fields">
        <label htmlFor="sched-provider" className="lbl">Provider</label>
        <select id="sched-provider" value={form.provider} onChange={(e) => setForm({...form, provider: e.target.value, slot: ''})}>
          <option value="">Choose a provider</option>
          {providers.map((p) => <option key={p.id} value={p.id}>{providerLabel(p)}</option>)}
        </select>
      </div>
      <h2>Open times</h2>
      <SlotPicker provider={form.provider} value={form.slot} onPick={(slot) => setForm({...form, slot})} />
      <div className="fields">
        <label htmlFor="sched-type" className="lbl">Visit type</label>
        <select id="sched-type" value={form.visit_type} onChange={set('visit_type')}>
          <option value="">Choose a visit type</option><option value="In person">In person</option><option value="Video visit">Video visit</option>
        </select>
        <label htmlFor="sched-reason" className="lbl">Reason for visit</label>
        <input id="sched-reason" type="text" value={form.reason} onChange={set('reason')} />
      </div>
      <p><button type="button" id="sched-submit" disabled={!ready} onClick={send}>Schedule</button></p>
    </section>
  );
}
