// Up/down vote buttons and the score between them; the server's answer is what is drawn.
import React from 'react';
import {useWF} from '../../kit/Shell.jsx';

export function Votes({kind, rec, onChange, idPrefix}) {
  const {call} = useWF();
  const vote = async (dir) => {
    const next = rec.my_vote === dir ? 0 : dir; // a second click on the same arrow takes the vote back
    const d = await call('POST', `/${kind}/${rec.id}/vote`, {dir: next});
    if (d) onChange({...rec, score: d.score, my_vote: d.my_vote});
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

export function SaveButton({kind, rec, onChange, id}) {
  const {call, toast} = useWF();
  const flip = async () => {
    const d = await call('POST', `/${kind}/${rec.id}/save`, {saved: !rec.saved});
    if (d) { onChange({...rec, saved: !rec.saved}); toast(d.message); }
  };
  return <button type="button" id={id} className="save linkish" aria-pressed={rec.saved} onClick={flip}>{rec.saved ? 'Unsave' : 'Save'}</button>;
}
