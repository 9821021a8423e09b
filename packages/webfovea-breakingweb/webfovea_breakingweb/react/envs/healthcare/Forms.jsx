// Forms: questionnaires to answer and consents to sign, each with its status, and the page of
// one form (radio answers and free text; a consent's terms, a typed signature and a box to
// check). A submitted form shows what was sent.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

const STATUS = {'to do': 'To do', submitted: 'Submitted', signed: 'Signed'};

function useForms() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/forms');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  return [data, reload];
}

export function Forms() {
  const [data] = useForms();
  if (!data) return <p className="muted">Loading your forms…</p>;
  return (
    <section id="forms-view">
      <h1>Forms</h1>
      <table id="forms" className="data">
        <thead><tr><th>Form</th><th>Kind</th><th>Status</th><th /></tr></thead>
        <tbody>{data.forms.map((f) => (
          <tr key={f.id} data-id={f.id}>
            <td>{f.title}</td><td>{f.kind === 'consent' ? 'Consent' : 'Questionnaire'}</td>
            <td className="status">{STATUS[f.status]}</td>
            <td><button type="button" className="open" onClick={() => go('#/forms/' + f.id)}>{f.status === 'to do' ? 'Start' : 'View'}</button></td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}

function Question({q, value, onChange, locked}) {
  if (!q.options.length) {
    return (
      <div className="question" data-key={q.key}>
        <label htmlFor={'q-' + q.key} className="lbl">{q.label}</label>
        <textarea id={'q-' + q.key} rows={3} value={value} disabled={locked} onChange={(e) => onChange(e.target.value)} />
      </div>
    );
  }
  return (
    <fieldset className="question" data-key={q.key}>
      <legend>{q.label}</legend>
      {q.options.map((o, i) => (
        <label key={o} htmlFor={`q-${q.key}-${i}`} className="choice">
          <input type="radio" id={`q-${q.key}-${i}`} name={'q-' + q.key} value={o} checked={value === o} disabled={locked}
            onChange={() => onChange(o)} /> {o}
        </label>
      ))}
    </fieldset>
  );
}

function Questionnaire({form, onDone}) {
  const {call, toast} = useWF();
  const locked = form.status !== 'to do';
  const [answers, setAnswers] = useState(form.answers);
  const send = async () => {
    const d = await call('POST', `/forms/${form.id}/submit`, {answers});
    if (!d) return;
    await onDone();
    toast(d.message);
  };
  return (
    <div>
      {form.questions.map((q) => (
        <Question key={q.key} q={q} value={answers[q.key] || ''} locked={locked} onChange={(v) => setAnswers({...answers, [q.key]: v})} />
      ))}
      {locked ? null : <p><button type="button" id="form-submit" onClick={send}>Submit</button></p>}
    </div>
  );
}

function Consent({form, name, onDone}) {
  const {call, toast} = useWF();
  const [signature, setSignature] = useState(form.signature);
  const [agree, setAgree] = useState(form.status === 'signed');
  const locked = form.status !== 'to do';
  const send = async () => {
    const d = await call('POST', `/forms/${form.id}/sign`, {signature, agree});
    if (!d) return;
    await onDone();
    toast(d.message);
  };
  return (
    <div>
      <p id="consent-text" className="panel">{form.text}</p>
      <label htmlFor="consent-signature" className="lbl">Type your full legal name ({name}) to sign</label>
      <input id="consent-signature" type="text" value={signature} disabled={locked} onChange={(e) => setSignature(e.target.value)} />
      <p><label htmlFor="consent-agree" className="choice">
        <input type="checkbox" id="consent-agree" checked={agree} disabled={locked} onChange={(e) => setAgree(e.target.checked)} /> I have read and agree to the terms above
      </label></p>
      {locked ? null : <p><button type="button" id="consent-sign" disabled={!signature.trim() || !agree} onClick={send}>Sign</button></p>}
    </div>
  );
}

export function FormPage({fid}) {
  const [data, reload] = useForms();
  if (!data) return <p className="muted">Loading…</p>;
  const form = data.forms.find((f) => f.id === fid);
  if (!form) return <p id="not-found">No form {fid}. <a href="#/forms">Back to forms</a></p>;
  // After a send the list opens when the re-read form is done; otherwise the draft stays.
  const done = async () => {
    const fresh = await reload();
    const now = fresh && fresh.forms.find((f) => f.id === fid);
    if (now && now.status !== 'to do') go('#/forms');
  };
  return (
    <section id="form" data-id={form.id}>
      <h1>{form.title}</h1>
      <p className="muted">Status: {STATUS[form.status]}</p>
      {form.kind === 'consent'
        ? <Consent key={form.status} form={form} name={data.name} onDone={done} />
        : <Questionnaire key={form.status} form={form} onDone={done} />}
      <p><a href="#/forms">Back to forms</a></p>
    </section>
  );
}
