// Up/down vote buttons and the score between them, and the Save button. After a write the view
// re-reads from the server (`reread`), so what is drawn is what the server holds — a "done" the
// server did not keep (a forged 200) shows as not done, as on any page that re-reads.
import React from 'react';
import {useWF} from '../../kit/Shell.jsx';

export function Votes({kind, rec, reread, idPrefix}) {
  const {call} = useWF();
  const vote = async (dir) => {
    const next = rec.my_vote === dir ? 0 : dir; // a second click on the same arrow takes the vote back
    if (await call('POST', `/${kind}/${rec.id}/vote`, {dir: next})) await reread();
  };
  const id = (s) => (idPrefix ? idPrefix + s : undefined);
  return (
    <div className="votes">
      <button type="button" id={id('up')} className="up" aria-label="Upvote" aria-pressed={rec.my_vote === 1} onClick={() => vote(1)}>▲</button>
      <span className="score" id={id('score')}>{rec.score}</span>
      <button type="button" id={id('down')} className="down" aria-label="Downvote" aria-pressed={rec.my_vote === -1} onClick={() => vote(-1)}>▼</button>
    </div>
  );
}

export function SaveButton({kind, rec, reread, id}) {
  const {call, toast} = useWF();
  const flip = async () => {
    const d = await call('POST', `/${kind}/${rec.id}/save`, {saved: !rec.saved});
    if (d) { await reread(); toast(d.message); }
  };
  return <button type="button" id={id} className="save linkish" aria-pressed={rec.saved} onClick={flip}>{rec.saved ? 'Unsave' : 'Save'}</button>;
}
