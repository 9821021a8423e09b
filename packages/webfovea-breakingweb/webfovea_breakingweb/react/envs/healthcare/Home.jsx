// The portal's start page: what needs you (unread messages, new results, forms to do, the
// balance) and your next visits.
import React, {useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {money, when} from './format.js';

export function Home() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  useEffect(() => { call('GET', '/summary').then((d) => d && setData(d)); }, [call]);
  if (!data) return <p className="muted">Loading…</p>;
  const cards = [
    ['#/messages', 'Messages', data.unread ? `${data.unread} unread` : 'No new messages'],
    ['#/results', 'Test results', data.new_results ? `${data.new_results} new` : 'Nothing new'],
    ['#/forms', 'Forms', data.forms_to_do ? `${data.forms_to_do} to complete` : 'All done'],
    ['#/billing', 'Billing', data.balance ? `${money(data.balance)} due` : 'Nothing due'],
  ];
  return (
    <section id="home">
      <h1>Welcome, {data.name.split(' ')[0]}</h1>
      <div className="cards">{cards.map(([href, title, text]) => (
        <a key={href} className="card" href={href}><b>{title}</b><span>{text}</span></a>
      ))}</div>
      <h2>Your next visits</h2>
      <ul id="next-visits">{data.upcoming.map((a) => (
        <li key={a.id} data-id={a.id}>{when(a.start)} — {a.provider_name} ({a.specialty}), {a.visit_type.toLowerCase()}</li>
      ))}</ul>
      <p><a href="#/schedule">Schedule an appointment</a></p>
    </section>
  );
}
