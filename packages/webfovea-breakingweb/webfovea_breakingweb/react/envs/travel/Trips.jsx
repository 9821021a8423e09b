// Your trips: upcoming, past and cancelled bookings, each opening its trip page.
import React, {useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';

const TABS = [['upcoming', 'Upcoming'], ['past', 'Past'], ['cancelled', 'Cancelled']];

export function Trips({tab}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  useEffect(() => { call('GET', '/bookings').then((d) => d && setData(d)); }, [call]);
  const list = data ? data[tab] || [] : null;
  return (
    <section id="trips-view">
      <h1>Trips</h1>
      <p className="tabs" role="tablist">{TABS.map(([key, text]) => (
        <a key={key} id={'tab-' + key} role="tab" aria-selected={tab === key} href={'#/trips?tab=' + key}>{text}</a>
      ))}</p>
      {!list ? <p className="muted">Loading your trips…</p> : (
        <div id="trips" data-tab={tab} data-count={list.length}>
          {list.length ? list.map((b) => (
            <div key={b.id} className="trip" data-id={b.id}>
              <a className="open name" href={'#/trip/' + b.id}>{b.property_name}</a> <span className="muted">{b.city}</span>
              <p>{b.check_in} to {b.check_out} · {b.nights} {b.nights === 1 ? 'night' : 'nights'} · {b.room_name} · <span className="status">{b.status}</span></p>
            </div>
          )) : <p className="muted">No {tab} trips.</p>}
        </div>
      )}
    </section>
  );
}
