// Your profile: contact details (demographics), the preferred pharmacy, and insurance. Each
// section keeps its draft (one the server did not keep can be saved again as it was) and shows
// what is on file, re-read after every save: what the server stored, not what was typed.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';

const LANGUAGES = ['English', 'Spanish', 'Portuguese', 'French', 'Cape Verdean Creole'];
const CARRIERS = ['Bluepoint Health', 'Harborview Mutual', 'Crestline Care', 'Unity Shield'];
const CONTACT = [['address', 'address', 'Street address'], ['city', 'city', 'City'], ['postal', 'postal_code', 'ZIP code'],
  ['phone', 'phone', 'Mobile phone'], ['email', 'email', 'Email']];

function Contact({profile, onSaved}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState(profile);
  const save = async () => {
    const body = Object.fromEntries(['address', 'city', 'postal_code', 'phone', 'email', 'language'].map((k) => [k, form[k]]));
    const d = await call('POST', '/profile', body);
    if (!d) return;
    await onSaved();
    toast(d.message);
  };
  return (
    <section id="contact" className="panel">
      <h2>Contact information</h2>
      <p className="muted">{profile.name} · born {profile.birth_date}</p>
      <p id="contact-on-file" className="on-file">On file: {profile.address}, {profile.city} {profile.postal_code} · {profile.phone} · {profile.email} · {profile.language}</p>
      <div className="fields">
        {CONTACT.map(([id, key, label]) => (
          <React.Fragment key={id}>
            <label htmlFor={'pf-' + id} className="lbl">{label}</label>
            <input id={'pf-' + id} type="text" value={form[key]} onChange={(e) => setForm({...form, [key]: e.target.value})} />
          </React.Fragment>
        ))}
        <label htmlFor="pf-language" className="lbl">Preferred language</label>
        <select id="pf-language" value={form.language} onChange={(e) => setForm({...form, language: e.target.value})}>
          {LANGUAGES.map((l) => <option key={l} value={l}>{l}</option>)}
        </select>
      </div>
      <p><button type="button" id="pf-save" onClick={save}>Save contact information</button></p>
    </section>
  );
}

function Pharmacy({preferred, pharmacies, onSaved}) {
  const {call, toast} = useWF();
  const [choice, setChoice] = useState(preferred);
  const save = async () => {
    const d = await call('POST', '/profile/pharmacy', {pharmacy: choice});
    if (!d) return;
    await onSaved();
    toast(d.message);
  };
  return (
    <section id="pharmacy" className="panel">
      <h2>Preferred pharmacy</h2>
      <p id="pharmacy-on-file" className="on-file">On file: {(pharmacies.find((ph) => ph.id === preferred) || {}).name}</p>
      <div className="fields">
        <label htmlFor="pf-pharmacy" className="lbl">Pharmacy</label>
        <select id="pf-pharmacy" value={choice} onChange={(e) => setChoice(e.target.value)}>
          {pharmacies.map((ph) => <option key={ph.id} value={ph.id}>{ph.name} — {ph.address}</option>)}
        </select>
      </div>
      <p><button type="button" id="pf-pharmacy-save" onClick={save}>Save pharmacy</button></p>
    </section>
  );
}

function Insurance({coverage, onSaved}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState(coverage);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const save = async () => {
    const d = await call('POST', '/coverages/' + coverage.id, {carrier: form.carrier, member_id: form.member_id, group_number: form.group_number, effective: form.effective});
    if (!d) return;
    await onSaved();
    toast(d.message);
  };
  return (
    <section id="insurance" className="panel">
      <h2>Insurance</h2>
      <p className="muted">Subscriber: {coverage.subscriber} · {coverage.primary ? 'primary coverage' : 'secondary coverage'}</p>
      <p id="ins-on-file" className="on-file">On file: {coverage.carrier} · member ID {coverage.member_id} · group {coverage.group_number} · coverage since {coverage.effective}</p>
      <div className="fields">
        <label htmlFor="ins-carrier" className="lbl">Insurance company</label>
        <select id="ins-carrier" value={form.carrier} onChange={set('carrier')}>
          {CARRIERS.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
        <label htmlFor="ins-member" className="lbl">Member ID</label><input id="ins-member" type="text" value={form.member_id} onChange={set('member_id')} />
        <label htmlFor="ins-group" className="lbl">Group number</label><input id="ins-group" type="text" value={form.group_number} onChange={set('group_number')} />
        <label htmlFor="ins-effective" className="lbl">Coverage start date (YYYY-MM-DD)</label>
        <input id="ins-effective" type="text" placeholder="YYYY-MM-DD" value={form.effective} onChange={set('effective')} />
      </div>
      <p><button type="button" id="ins-save" onClick={save}>Save insurance</button></p>
    </section>
  );
}

export function Profile() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/profile');
    if (d) setData(d);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading your profile…</p>;
  const {profile, coverages, pharmacies} = data;
  return (
    <section id="profile-view">
      <h1>Profile</h1>
      <Contact profile={profile} onSaved={reload} />
      <Pharmacy preferred={profile.pharmacy} pharmacies={pharmacies} onSaved={reload} />
      {coverages.map((c) => <Insurance key={c.id} coverage={c} onSaved={reload} />)}
    </section>
  );
}
