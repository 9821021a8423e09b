// Lectern, BreakingWeb's education environment (a Canvas-like LMS; seed 003 A.1): a student's
// dashboard, courses with modules, assignments and submissions, grades, discussions,
// announcements, a calendar and a to-do list, over /api/env/education.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {parseHash, useHash} from '../../kit/hash.js';
import {Dashboard, Todo} from './Dashboard.jsx';
import {Course, GradesOverview} from './Course.jsx';
import {Announcement, AnnouncementList} from './Announcements.jsx';
import {AssignmentPage} from './Assignment.jsx';
import {NewTopic, TopicPage} from './Discussion.jsx';
import {Calendar} from './Calendar.jsx';

function Header() {
  const {api} = useWF();
  const hash = useHash();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    api('GET', '/unread').then((d) => { if (d.ok) setUnread(d.unread); });
  }, [api, hash]);
  const nav = [['#/', 'Dashboard', 'nav-dashboard'], ['#/announcements', 'Announcements', 'nav-announcements'],
    ['#/grades', 'Grades', 'nav-grades'], ['#/calendar', 'Calendar', 'nav-calendar'], ['#/todo', 'To Do', 'nav-todo']];
  return (
    <header className="lms">
      <a className="brand" href="#/">Lectern</a>
      <nav id="lms-nav" aria-label="Lectern">
        {nav.map(([href, text, id]) => (
          <a key={id} id={id} href={href}>{text}{id === 'nav-announcements' && unread ? <span className="badge"> ({unread})</span> : null}</a>
        ))}
      </nav>
      <span className="user">Jordan Reyes</span>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a, b, c] = parts;
  if (!head) return <Dashboard />;
  if (head === 'courses' && a && b === 'discussions' && c === 'new') return <NewTopic key={a} cid={a} />;
  if (head === 'courses' && a) return <Course key={a + (b || '')} cid={a} tab={b || 'modules'} />;
  if (head === 'assignments' && a) return <AssignmentPage key={a} aid={a} />;
  if (head === 'discussions' && a) return <TopicPage key={a} did={a} />;
  if (head === 'announcements' && a) return <Announcement key={a} nid={a} />;
  if (head === 'announcements') return <AnnouncementList />;
  if (head === 'grades') return <GradesOverview />;
  if (head === 'calendar') return <Calendar key={params.month || ''} month={params.month} />;
  if (head === 'todo') return <Todo />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function App() {
  return (
    <Shell config={window.WF_ENV} header={<Header />}>
      <View />
    </Shell>
  );
}

createRoot(document.getElementById('root')).render(<App />);
