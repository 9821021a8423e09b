// Test results: every result with its collection day (new ones marked), and the open result's
// components against their reference ranges. Opening a new result marks it viewed; its "Ask a
// question" link writes to the ordering provider with the subject filled in.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {day} from './format.js';

function flag(k) {
  if (k.value < k.low) return 'Low';
  if (k.value > k.high) return 'High';
  return '';
}

function Result({res}) {
  const {unit} = useWF();
  const subject = `Question about ${res.test} (${day(res.collected)})`;
  return (
    <article id="result" data-id={res.id} className="panel">
      <h2>{res.test}</h2>
      <p className="muted">Collected {day(res.collected)} · ordered by {unit(res.ordered_by, res.ordered_by_name)}</p>
      <table id="components" className="data">
        <thead><tr><th>Component</th><th>Your value</th><th>Standard range</th><th>Flag</th></tr></thead>
        <tbody>{res.components.map((k) => (
          <tr key={k.name} className={flag(k) ? 'abnormal' : ''}>
            <td>{k.name}</td><td className="value">{k.value} {k.unit}</td><td>{k.low} – {k.high} {k.unit}</td>
            <td className="flag">{flag(k)}</td>
          </tr>
        ))}</tbody>
      </table>
      <p><a id="result-ask" href={`#/messages/new?to=${res.ordered_by}&subject=${encodeURIComponent(subject)}`}>Ask a question about this result</a></p>
    </article>
  );
}

export function Results({open}) {
  const {call, unit} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/results');
    if (d) setList(d.results);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const fresh = Boolean(open && list && list.some((x) => x.id === open && !x.viewed));
  useEffect(() => {
    if (fresh) call('POST', `/results/${open}/viewed`, {}).then((d) => d && reload());
  }, [fresh, open, call, reload]);
  if (!list) return <p className="muted">Loading your results…</p>;
  const shown = list.find((x) => x.id === open);
  return (
    <section id="results-view">
      <h1>Test results</h1>
      <table id="results" className="data">
        <thead><tr><th>Test</th><th>Collected</th><th>Ordered by</th><th>Flags</th></tr></thead>
        <tbody>{list.map((x) => (
          <tr key={x.id} data-id={x.id} className={x.viewed ? 'viewed' : 'new'}>
            <td><button type="button" className="open linkish" onClick={() => go('#/results/' + x.id)}>{x.test}</button>
              {x.viewed ? null : <span className="tag new-tag">New</span>}</td>
            <td className="collected">{day(x.collected)}</td><td className="ordered-by">{unit(x.ordered_by, x.ordered_by_name)}</td>
            <td>{x.flagged ? `${x.flagged} outside range` : 'All in range'}</td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? <Result res={shown} /> : null}
    </section>
  );
}
