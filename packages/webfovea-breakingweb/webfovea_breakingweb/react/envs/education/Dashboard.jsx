// The dashboard (course cards with their favorite star, the to-do sidebar) and the To Do page
// (coming work, dismissed items and your own to-do notes with the form that adds one).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {courseLabel, when} from './util.js';

function TodoRow({row, onDismiss}) {
  return (
    <li data-id={row.id} className={'todo ' + row.kind}>
      {row.kind === 'assignment' ? <a href={'#/assignments/' + row.id} className="title">{row.title}</a> : <span className="title">{row.title}</span>}
      <span className="muted"> {row.course_code ? row.course_code + ' · ' : ''}{row.kind === 'assignment' ? 'due ' : ''}{when(row.date)}</span>
      {onDismiss && row.kind === 'assignment' ? <button type="button" className="dismiss linkish" aria-label={'Dismiss ' + row.title} onClick={() => onDismiss(row)}>×</button> : null}
    </li>
  );
}

export function Dashboard() {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/dashboard');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const star = async (c) => {
    if (await call('POST', `/courses/${c.id}/favorite`, {on: !c.favorite})) await reload();
  };
  const dismiss = async (row) => {
    const d = await call('POST', `/assignments/${row.id}/dismiss`, {});
    if (d) { await reload(); toast(d.message); }
  };
  if (!data) return <p className="muted">Loading your dashboard…</p>;
  return (
    <div className="dash">
      <section>
        <h1>Dashboard</h1>
        <div id="courses">{data.courses.map((c) => (
          <div key={c.id} className="course-card" data-id={c.id} style={{borderTopColor: c.color}}>
            <button type="button" className="fav linkish" aria-pressed={c.favorite} aria-label={'Favorite ' + c.code} onClick={() => star(c)}>{c.favorite ? '★' : '☆'}</button>
            <a className="course-link" href={'#/courses/' + c.id}>{c.name}</a>
            <p className="code">{c.code} · {c.term}</p>
            <p className="muted">{c.instructor}</p>
          </div>
        ))}</div>
      </section>
      <aside>
        <h2>To Do</h2>
        <ul id="todo-list">{data.todo.map((row) => <TodoRow key={row.id} row={row} onDismiss={dismiss} />)}</ul>
        <a href="#/todo" id="todo-all">Show all</a>
      </aside>
    </div>
  );
}

export function Todo() {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const [courses, setCourses] = useState([]);
  const [form, setForm] = useState({title: '', date: '', course: ''});
  const reload = useCallback(async () => {
    const d = await call('GET', '/todo');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); call('GET', '/dashboard').then((d) => d && setCourses(d.courses)); }, [reload, call]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  // The form is kept until the re-read list shows the note (one the server did not keep can be added again).
  const add = async () => {
    const d = await call('POST', '/notes', form);
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.notes.some((n) => n.id === d.id)) setForm({title: '', date: '', course: ''});
    toast(d.message, d.id);
  };
  const complete = async (n) => {
    const d = await call('POST', `/notes/${n.id}/done`, {on: !n.done});
    if (d) { await reload(); toast(d.message); }
  };
  if (!data) return <p className="muted">Loading…</p>;
  const codes = Object.fromEntries(courses.map((c) => [c.id, c.code]));
  return (
    <section>
      <h1>To Do</h1>
      <ul id="todo">{data.todo.map((row) => <TodoRow key={row.id} row={row} />)}</ul>
      <h2>Add a to-do</h2>
      <div className="fields">
        <label htmlFor="note-title" className="lbl">Title</label><input id="note-title" type="text" value={form.title} onChange={set('title')} />
        <label htmlFor="note-date" className="lbl">Date</label><input id="note-date" type="text" placeholder="YYYY-MM-DD" value={form.date} onChange={set('date')} />
        <label htmlFor="note-course" className="lbl">Course</label>
        <select id="note-course" value={form.course} onChange={set('course')}>
          <option value="">No course</option>
          {courses.map((c) => <option key={c.id} value={c.id}>{courseLabel(c)}</option>)}
        </select>
      </div>
      <p><button type="button" id="note-add" disabled={!form.title.trim() || !form.date} onClick={add}>Add to-do</button></p>
      <h2>Your notes</h2>
      <ul id="notes">{data.notes.map((n) => (
        <li key={n.id} data-id={n.id} className={n.done ? 'done' : ''}>
          <button type="button" className="complete linkish" aria-pressed={n.done} onClick={() => complete(n)}>{n.done ? '☑' : '☐'}</button>
          {' '}{n.title} <span className="muted">{n.date}{n.course ? ' · ' + (codes[n.course] || n.course) : ''}</span>
        </li>
      ))}</ul>
      <h2>Dismissed</h2>
      <ul id="dismissed">{data.dismissed.map((a) => <li key={a.id} data-id={a.id}>{a.title} <span className="muted">{a.course_code} · due {when(a.due)}</span></li>)}</ul>
    </section>
  );
}
