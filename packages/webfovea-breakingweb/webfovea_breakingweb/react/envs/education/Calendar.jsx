// The calendar: one month's events and due dates by day, the months before and after, and the
// form that adds an event (personal, or for one of your courses).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {courseLabel} from './util.js';

function shift(month, by) {
  const [y, m] = month.split('-').map(Number);
  const t = y * 12 + (m - 1) + by;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
}

const EMPTY = {title: '', date: '', time: '', course: ''};

// A new event, or (`event`) one to edit. The form is kept until the re-read month shows the
// event; an event saved in another month opens that month, as a calendar app does.
function EventForm({courses, event, month, onSaved}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState(event ? {title: event.title, date: event.date, time: event.time, course: event.course} : EMPTY);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const save = async () => {
    const d = await call('POST', event ? '/events/' + event.id : '/events', form);
    if (!d) return;
    toast(d.message, d.id);
    if (d.date.slice(0, 7) !== month) { go('#/calendar?month=' + d.date.slice(0, 7)); return; }
    if (await onSaved(d.id)) setForm(EMPTY);
  };
  return (
    <div id="event-form" className="fields">
      <label htmlFor="event-title" className="lbl">Title</label><input id="event-title" type="text" value={form.title} onChange={set('title')} />
      <label htmlFor="event-date" className="lbl">Date</label><input id="event-date" type="text" placeholder="YYYY-MM-DD" value={form.date} onChange={set('date')} />
      <label htmlFor="event-time" className="lbl">Time</label><input id="event-time" type="text" placeholder="HH:MM" value={form.time} onChange={set('time')} />
      <label htmlFor="event-course" className="lbl">Calendar</label>
      <select id="event-course" value={form.course} onChange={set('course')}>
        <option value="">Personal</option>
        {courses.map((c) => <option key={c.id} value={c.id}>{courseLabel(c)}</option>)}
      </select>
      <span />
      <p><button type="button" id="event-save" disabled={!form.title.trim() || !form.date} onClick={save}>Save event</button></p>
    </div>
  );
}

export function Calendar({month}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const [courses, setCourses] = useState([]);
  const [adding, setAdding] = useState(null); // null: no form; {}: a new event; an event: editing it
  const reload = useCallback(async () => {
    const d = await call('GET', '/calendar' + (month ? '?month=' + month : ''));
    if (d) setData(d);
    return d;
  }, [call, month]);
  useEffect(() => { reload(); call('GET', '/dashboard').then((d) => d && setCourses(d.courses)); }, [reload, call]);
  if (!data) return <p className="muted">Loading the calendar…</p>;
  const days = [];
  for (const item of data.items) {
    if (!days.length || days[days.length - 1].date !== item.date) days.push({date: item.date, items: []});
    days[days.length - 1].items.push(item);
  }
  const saved = async (id) => {
    const fresh = await reload();
    const shown = Boolean(fresh && fresh.items.some((x) => x.id === id));
    if (shown) setAdding(null);
    return shown;
  };
  return (
    <section>
      <h1 id="cal-month">Calendar · {data.month}</h1>
      <p><a id="cal-prev" href={'#/calendar?month=' + shift(data.month, -1)}>‹ Previous month</a> ·{' '}
        <a id="cal-next" href={'#/calendar?month=' + shift(data.month, 1)}>Next month ›</a> ·{' '}
        <button type="button" id="event-new" onClick={() => setAdding({})}>+ Event</button></p>
      {adding ? <EventForm key={adding.id || 'new'} courses={courses} event={adding.id ? adding : null} month={data.month} onSaved={saved} /> : null}
      <div id="calendar">{days.length ? days.map((d) => (
        <div key={d.date} className="day" data-date={d.date}>
          <h2>{d.date}</h2>
          <ul>{d.items.map((x) => (
            <li key={x.id} data-id={x.id} className={x.kind}>
              <span className="time">{x.time || 'all day'}</span> {x.kind === 'due' ? <a href={'#/assignments/' + x.id}>Due: {x.title}</a> : x.title}
              {x.course_code ? <span className="muted"> · {x.course_code}</span> : null}
              {x.kind === 'event' ? <button type="button" className="edit linkish" aria-label={'Edit ' + x.title} onClick={() => setAdding(x)}>Edit</button> : null}
            </li>
          ))}</ul>
        </div>
      )) : <p className="muted">Nothing this month.</p>}</div>
    </section>
  );
}
