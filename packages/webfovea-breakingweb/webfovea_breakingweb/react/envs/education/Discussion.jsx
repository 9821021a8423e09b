// A discussion with its threaded replies: subscribe, like, reply to the topic or under any
// reply; and the form that starts a discussion in a course. Every write re-reads the topic.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {Linked} from './Announcements.jsx';
import {when} from './util.js';

// The draft is kept until the re-read topic shows the reply (one the server did not keep can
// be sent again as it was).
function ReplyBox({did, parent, onDone}) {
  const {call, toast} = useWF();
  const [text, setText] = useState('');
  const send = async () => {
    const d = await call('POST', `/discussions/${did}/entries`, {body: text, parent});
    if (!d) return;
    if (await onDone(d.id)) setText('');
    toast(d.message, d.id);
  };
  const id = parent ? 'reply-' + parent : 'reply-body';
  return (
    <div className={parent ? 'reply-form' : 'topic-reply'}>
      <label htmlFor={id} className={parent ? 'sr' : 'lbl'}>{parent ? 'Your reply' : 'Reply to the discussion'}</label>
      <textarea id={id} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      <p><button type="button" id={parent ? undefined : 'reply-send'} className={parent ? 'reply-send' : ''} disabled={!text.trim()} onClick={send}>Post reply</button></p>
    </div>
  );
}

function holds(data, id) {
  return Boolean(data && data.entries.some((e) => e.id === id));
}

function EntryNode({node, depth, ctx}) {
  const {call} = useWF();
  const [replying, setReplying] = useState(false);
  const e = node.entry;
  const like = async () => {
    if (await call('POST', `/entries/${e.id}/like`, {on: !e.liked})) await ctx.reload();
  };
  return (
    <div className="entry" data-id={e.id} data-depth={depth}>
      <div className="e-meta"><b className="author">{e.author}</b> · <span className="when">{when(e.created)}</span></div>
      <div className="e-body">{e.body}</div>
      <div className="actions">
        <button type="button" className="like linkish" aria-pressed={e.liked} aria-label={'Like ' + e.author + "'s reply"} onClick={like}>{e.liked ? '♥' : '♡'} {e.likes}</button>
        <button type="button" className="reply linkish" onClick={() => setReplying(true)}>Reply</button>
      </div>
      {replying ? <ReplyBox did={ctx.did} parent={e.id} onDone={async (id) => { const shown = holds(await ctx.reload(), id); if (shown) setReplying(false); return shown; }} /> : null}
      {node.children.map((c) => <EntryNode key={c.entry.id} node={c} depth={depth + 1} ctx={ctx} />)}
    </div>
  );
}

function tree(entries) {
  const nodes = new Map(entries.map((e) => [e.id, {entry: e, children: []}]));
  const roots = [];
  for (const e of entries) {
    const n = nodes.get(e.id);
    if (e.parent && nodes.has(e.parent)) nodes.get(e.parent).children.push(n);
    else roots.push(n);
  }
  return roots;
}

export function TopicPage({did}) {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/discussions/' + did);
    if (d) setData(d);
    return d;
  }, [call, did]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading the discussion…</p>;
  const {topic, course, entries} = data;
  const subscribe = async () => {
    const d = await call('POST', `/discussions/${did}/subscribe`, {on: !topic.subscribed});
    if (d) { await reload(); toast(d.message); }
  };
  return (
    <article id="topic" data-id={topic.id}>
      <p className="crumbs"><a href={`#/courses/${course.id}/discussions`}>{course.code} {course.name}</a> · Discussions</p>
      <h1>{topic.title}</h1>
      <p className="muted">{topic.author} · {when(topic.created)}{' '}
        <button type="button" id="subscribe" className="secondary" aria-pressed={topic.subscribed} onClick={subscribe}>{topic.subscribed ? 'Subscribed' : 'Subscribe'}</button></p>
      <div className="t-body"><Linked text={topic.body} /></div>
      <ReplyBox did={did} parent={null} onDone={async (id) => holds(await reload(), id)} />
      <section id="entries">{tree(entries).map((n) => <EntryNode key={n.entry.id} node={n} depth={0} ctx={{did, reload}} />)}</section>
    </article>
  );
}

export function NewTopic({cid}) {
  const {call, toast} = useWF();
  const [course, setCourse] = useState(null);
  const [form, setForm] = useState({title: '', body: ''});
  useEffect(() => { call('GET', '/courses/' + cid).then((d) => d && setCourse(d.course)); }, [call, cid]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  // Opens the new discussion once the course's list, re-read, holds it; else the form stays.
  const post = async () => {
    const d = await call('POST', `/courses/${cid}/discussions`, form);
    if (!d) return;
    const fresh = await call('GET', `/courses/${cid}/discussions`);
    toast(d.message, d.id);
    if (fresh && fresh.topics.some((t) => t.id === d.id)) go('#/courses/' + cid + '/discussions');
  };
  return (
    <section id="new-topic-form">
      <p className="crumbs">{course ? course.code + ' ' + course.name : ''} · Discussions</p>
      <h1>New discussion</h1>
      <div className="fields">
        <label htmlFor="topic-title" className="lbl">Title</label><input id="topic-title" type="text" value={form.title} onChange={set('title')} />
        <label htmlFor="topic-body" className="lbl">Message</label><textarea id="topic-body" rows={6} value={form.body} onChange={set('body')} />
      </div>
      <p><button type="button" id="topic-post" disabled={form.title.trim().length < 3 || !form.body.trim()} onClick={post}>Post discussion</button></p>
    </section>
  );
}
