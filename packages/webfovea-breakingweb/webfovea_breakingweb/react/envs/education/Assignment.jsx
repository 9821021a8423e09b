// One assignment: its details, the submission history (every attempt), the submission form
// (a text entry or a file chosen from your files, in the forms the assignment takes) and the
// comments on your latest attempt. Every write re-reads the assignment; a draft is kept until
// the re-read shows what was sent.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {when} from './util.js';

function SubmitForm({data, onSent}) {
  const {call, toast} = useWF();
  const a = data.assignment;
  const [kind, setKind] = useState(a.types[0]);
  const [body, setBody] = useState('');
  const [file, setFile] = useState('');
  const ready = kind === 'text' ? body.trim().length > 0 : Boolean(file);
  const send = async () => {
    const d = await call('POST', `/assignments/${a.id}/submissions`, {kind, body: kind === 'text' ? body : '', file: kind === 'upload' ? file : ''});
    if (!d) return;
    if (await onSent(d.id)) { setBody(''); setFile(''); }
    toast(d.message, d.id);
  };
  return (
    <div id="submit-form">
      <div role="tablist" className="kinds">
        {a.types.includes('text') ? <button type="button" role="tab" id="kind-text" aria-selected={kind === 'text'} onClick={() => setKind('text')}>Text entry</button> : null}
        {a.types.includes('upload') ? <button type="button" role="tab" id="kind-upload" aria-selected={kind === 'upload'} onClick={() => setKind('upload')}>File upload</button> : null}
      </div>
      {kind === 'text' ? (
        <div className="fields">
          <label htmlFor="text-body" className="lbl">Text entry</label>
          <textarea id="text-body" rows={6} value={body} onChange={(e) => setBody(e.target.value)} />
        </div>
      ) : (
        <div className="fields">
          <label htmlFor="upload-file" className="lbl">File</label>
          <select id="upload-file" value={file} onChange={(e) => setFile(e.target.value)}>
            <option value="">Choose one of your files</option>
            {data.files.map((f) => <option key={f.id} value={f.name}>{f.name}</option>)}
          </select>
        </div>
      )}
      <p><button type="button" id="submit-go" disabled={!ready} onClick={send}>Submit assignment</button></p>
    </div>
  );
}

function Comments({data, reload}) {
  const {call, toast} = useWF();
  const [text, setText] = useState('');
  const last = data.submissions[data.submissions.length - 1];
  const send = async () => {
    const d = await call('POST', `/submissions/${last.id}/comments`, {body: text});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.comments.some((k) => k.id === d.id)) setText('');
    toast(d.message, d.id);
  };
  return (
    <section id="feedback">
      <h2>Comments on attempt {last.attempt}</h2>
      <ul id="comments">{data.comments.map((k) => (
        <li key={k.id} data-id={k.id}><b>{k.author}</b> <span className="muted">{when(k.created)}</span><br />{k.body}</li>
      ))}</ul>
      <label htmlFor="comment-body" className="lbl">Add a comment</label>
      <textarea id="comment-body" rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      <p><button type="button" id="comment-send" disabled={!text.trim()} onClick={send}>Comment</button></p>
    </section>
  );
}

export function AssignmentPage({aid}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const [open, setOpen] = useState(false);
  const reload = useCallback(async () => {
    const d = await call('GET', '/assignments/' + aid);
    if (d) setData(d);
    return d;
  }, [call, aid]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading the assignment…</p>;
  const a = data.assignment;
  const left = a.attempts - data.submissions.length;
  const sent = async (id) => {
    const fresh = await reload();
    const shown = Boolean(fresh && fresh.submissions.some((s) => s.id === id));
    if (shown) setOpen(false);
    return shown;
  };
  return (
    <article id="assignment" data-id={a.id}>
      <p className="crumbs"><a href={`#/courses/${a.course}/assignments`}>{data.course.code} {data.course.name}</a> · Assignments</p>
      <h1>{a.title}</h1>
      <dl className="facts">
        <dt>Due</dt><dd id="due">{when(a.due)}</dd><dt>Points</dt><dd>{a.points}</dd>
        <dt>Submitting</dt><dd>{a.types.map((t) => (t === 'text' ? 'a text entry' : 'a file upload')).join(' or ')}</dd>
        <dt>Attempts</dt><dd id="attempts-left">{data.submissions.length} of {a.attempts} used</dd>
        <dt>Status</dt><dd id="status">{a.status}{a.score !== null ? ` · ${a.score} / ${a.points}` : ''}</dd>
      </dl>
      <p className="desc">{a.description}</p>
      <p><button type="button" id="start" disabled={left < 1 || open} onClick={() => setOpen(true)}>
        {data.submissions.length ? 'New attempt' : 'Start assignment'}</button>
        {left < 1 ? <span className="muted"> No attempts left.</span> : null}</p>
      {open ? <SubmitForm data={data} onSent={sent} /> : null}
      <h2>Submission history</h2>
      <ul id="attempts">{data.submissions.map((s) => (
        <li key={s.id} data-id={s.id}>Attempt {s.attempt} · {when(s.submitted)}{s.late ? ' · late' : ''} ·{' '}
          {s.kind === 'text' ? <q>{s.body}</q> : <span className="file">{s.file}</span>}
          {s.score !== null ? <b> · {s.score} / {a.points}</b> : <span className="muted"> · not graded yet</span>}</li>
      ))}</ul>
      {data.submissions.length ? <Comments data={data} reload={reload} /> : null}
    </article>
  );
}
