// One course: its tabs (modules with "Mark as done", announcements, assignments, discussions,
// grades with the weighted total), and the grades overview of every course.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {AnnRows} from './Announcements.jsx';
import {when} from './util.js';

const TABS = [['modules', 'Modules'], ['announcements', 'Announcements'], ['assignments', 'Assignments'],
  ['discussions', 'Discussions'], ['grades', 'Grades']];

function Modules({cid}) {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/courses/' + cid);
    if (d) setData(d);
  }, [call, cid]);
  useEffect(() => { reload(); }, [reload]);
  const mark = async (item) => {
    const d = await call('POST', `/items/${item.id}/done`, {on: !item.done});
    if (d) { await reload(); toast(d.message); }
  };
  if (!data) return <p className="muted">Loading modules…</p>;
  return (
    <div id="modules">{data.modules.map((m) => (
      <div key={m.id} className="module" data-id={m.id}>
        <h2>{m.title}</h2>
        <ul>{data.items.filter((i) => i.module === m.id).map((i) => (
          <li key={i.id} className={'item ' + i.kind} data-id={i.id}>
            <span className="kind">{i.kind}</span>{' '}
            {i.kind === 'assignment' ? <a href={'#/assignments/' + i.ref}>{i.title}</a> : <span className="title">{i.title}</span>}
            <button type="button" className="done" aria-pressed={i.done} onClick={() => mark(i)}>{i.done ? 'Done ✓' : 'Mark as done'}</button>
          </li>
        ))}</ul>
      </div>
    ))}</div>
  );
}

function CourseAnnouncements({cid}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', '/announcements?course=' + cid).then((d) => d && setList(d.announcements)); }, [call, cid]);
  return list ? <AnnRows list={list} /> : <p className="muted">Loading…</p>;
}

function WorkTable({cid, id}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  useEffect(() => { call('GET', `/courses/${cid}/assignments`).then((d) => d && setData(d)); }, [call, cid]);
  if (!data) return <p className="muted">Loading…</p>;
  const grades = id === 'grades';
  return (
    <div>
      <table id={id} className="data">
        <thead><tr><th>{grades ? 'Name' : 'Assignment'}</th><th>Group</th><th>Due</th><th>{grades ? 'Score' : 'Points'}</th><th>Status</th></tr></thead>
        <tbody>{data.rows.map((a) => (
          <tr key={a.id} data-id={a.id}>
            <td><a className="title" href={'#/assignments/' + a.id}>{a.title}</a></td><td>{a.group}</td><td>{when(a.due)}</td>
            <td className="score">{grades ? (a.score === null ? '–' : a.score) + ' / ' + a.points : a.points}</td>
            <td className={'status ' + a.status}>{a.status}</td>
          </tr>
        ))}</tbody>
      </table>
      {grades ? (
        <div id="grade-summary">
          <p id="grade-total"><b>Total: {data.total === null ? 'no graded work yet' : data.total + '%'}</b></p>
          <table className="data" id="grade-groups"><thead><tr><th>Group</th><th>Weight</th><th>Score</th></tr></thead>
            <tbody>{data.groups.map((g) => <tr key={g.group}><td>{g.group}</td><td>{g.weight}%</td><td>{g.percent === null ? '–' : g.percent + '%'}</td></tr>)}</tbody></table>
        </div>
      ) : null}
    </div>
  );
}

function Discussions({cid}) {
  const {call} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', `/courses/${cid}/discussions`).then((d) => d && setList(d.topics)); }, [call, cid]);
  if (!list) return <p className="muted">Loading…</p>;
  return (
    <div>
      <p><a id="new-topic" className="button" href={`#/courses/${cid}/discussions/new`}>+ New discussion</a></p>
      <ul id="topics">{list.map((t) => (
        <li key={t.id} className="topic" data-id={t.id}>
          {t.pinned ? <span className="tag">Pinned</span> : null} <a className="title" href={'#/discussions/' + t.id}>{t.title}</a>
          <span className="muted"> · {t.author} · {t.replies} {t.replies === 1 ? 'reply' : 'replies'}{t.subscribed ? ' · subscribed' : ''}</span>
        </li>
      ))}</ul>
    </div>
  );
}

export function Course({cid, tab}) {
  const {call} = useWF();
  const [course, setCourse] = useState(null);
  useEffect(() => { call('GET', '/courses/' + cid).then((d) => d && setCourse(d.course)); }, [call, cid]);
  if (!course) return <p className="muted">Loading the course…</p>;
  return (
    <div id="course" data-id={cid} className="course">
      <nav id="course-nav" aria-label="Course">
        {TABS.map(([name, text]) => (
          <a key={name} id={'tab-' + name} href={`#/courses/${cid}/${name}`} aria-current={tab === name ? 'page' : undefined}>{text}</a>
        ))}
      </nav>
      <section>
        <p className="crumbs">{course.code} · {course.term} · {course.instructor}</p>
        <h1 id="course-title">{course.name}</h1>
        {tab === 'modules' ? <Modules cid={cid} /> : null}
        {tab === 'announcements' ? <CourseAnnouncements cid={cid} /> : null}
        {tab === 'assignments' ? <WorkTable cid={cid} id="assignments" /> : null}
        {tab === 'discussions' ? <Discussions cid={cid} /> : null}
        {tab === 'grades' ? <WorkTable cid={cid} id="grades" /> : null}
      </section>
    </div>
  );
}

export function GradesOverview() {
  const {call, unit} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', '/grades').then((d) => d && setList(d.courses)); }, [call]);
  if (!list) return <p className="muted">Loading…</p>;
  return (
    <section>
      <h1>Grades</h1>
      <table id="grades-overview" className="data"><thead><tr><th>Course</th><th>Term</th><th>Current grade</th></tr></thead>
        <tbody>{list.map((c) => (
          <tr key={c.id} data-id={c.id}><td><a href={`#/courses/${c.id}/grades`}>{c.code}<span className="name">{unit('', ' ' + c.name)}</span></a></td><td>{c.term}</td>
            <td className="total">{c.total === null ? '–' : c.total + '%'}</td></tr>
        ))}</tbody></table>
    </section>
  );
}
