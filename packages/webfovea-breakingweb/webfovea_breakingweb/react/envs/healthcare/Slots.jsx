// The slot picker: a provider's open times, one row per day, one button per time (pressed when
// chosen). The server answers only free slots, re-read whenever the provider changes.
import React, {useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {clock, longDay, when} from './format.js';

export function SlotPicker({provider, value, onPick, except}) {
  const {call} = useWF();
  const [slots, setSlots] = useState(null);
  useEffect(() => {
    setSlots(null);
    if (provider) call('GET', '/slots?provider=' + encodeURIComponent(provider)).then((d) => d && setSlots(d.slots));
  }, [call, provider]);
  if (!provider) return <p className="muted" id="slots-hint">Choose a provider to see open times.</p>;
  if (!slots) return <p className="muted">Loading open times…</p>;
  const shown = slots.filter((s) => s.id !== except);
  if (!shown.length) return <p className="muted">No open times in the next three weeks.</p>;
  const days = [];
  for (const s of shown) {
    const d = longDay(s.start);
    if (!days.length || days[days.length - 1][0] !== d) days.push([d, []]);
    days[days.length - 1][1].push(s);
  }
  return (
    <div id="slots" role="group" aria-label="Open times">
      {days.map(([d, list]) => (
        <div key={d} className="slot-day"><span className="slot-date">{d}</span>
          {list.map((s) => (
            <button key={s.id} type="button" className="slot" data-id={s.id} aria-label={when(s.start)}
              aria-pressed={value === s.id} onClick={() => onPick(s.id)}>{clock(s.start)}</button>
          ))}
        </div>
      ))}
    </div>
  );
}
