// Creating a post, and the saved posts and comments.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {PostRow} from './Feed.jsx';

const FLAIRS = ['', 'Question', 'Discussion', 'Guide', 'Showcase'];

export function Submit({community}) {
  const {call, toast} = useWF();
  const [communities, setCommunities] = useState([]);
  const [form, setForm] = useState({community, title: '', body: '', flair: ''});
  const [mine, setMine] = useState([]);
  useEffect(() => { call('GET', '/communities').then((d) => d && setCommunities(d.communities)); }, [call]);
  // Your posts are re-read below the form; the form is kept until the new post shows there.
  const reread = useCallback(async () => {
    const d = await call('GET', '/posts?feed=all&sort=new&author=me');
    if (d) setMine(d.posts);
    return d ? d.posts : [];
  }, [call]);
  useEffect(() => { reread(); }, [reread]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    if (!form.community) { toast('Choose a community first.'); return; }
    const d = await call('POST', '/posts', form);
    if (!d) return;
    if ((await reread()).some((p) => p.id === d.id)) setForm({community: form.community, title: '', body: '', flair: ''});
    toast(d.message, d.id);
  };
  return (
    <section>
      <h1>Create a post</h1>
      <div className="fields">
        <label htmlFor="new-community" className="lbl">Community</label>
        <select id="new-community" value={form.community} onChange={set('community')}>
          <option value="">Choose a community</option>
          {communities.map((c) => <option key={c.id} value={c.name}>r/{c.name}</option>)}
        </select>
        <label htmlFor="new-title" className="lbl">Title</label><input id="new-title" type="text" value={form.title} onChange={set('title')} />
        <label htmlFor="new-flair" className="lbl">Flair</label>
        <select id="new-flair" value={form.flair} onChange={set('flair')}>{FLAIRS.map((f) => <option key={f} value={f}>{f || 'No flair'}</option>)}</select>
        <label htmlFor="new-body" className="lbl">Text</label><textarea id="new-body" rows={6} value={form.body} onChange={set('body')} />
      </div>
      <p><button type="button" id="new-submit" disabled={form.title.trim().length < 3} onClick={send}>Post</button></p>
      <h2>Your posts</h2>
      <ul id="my-posts">{mine.map((p) => <li key={p.id} data-id={p.id}><a href={'#/p/' + p.id}>{p.title}</a> in r/{p.community}</li>)}</ul>
    </section>
  );
}

export function Saved() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/saved');
    if (d) setData(d);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading…</p>;
  return (
    <section>
      <h1>Saved</h1>
      <h2>Posts</h2>
      <div id="saved-posts">{data.posts.length ? data.posts.map((p) => (
        <PostRow key={p.id} post={p} reread={reload} />
      )) : <p className="muted">No saved posts.</p>}</div>
      <h2>Comments</h2>
      <ul id="saved-comments">{data.comments.map((k) => (
        <li key={k.id} data-id={k.id}>u/{k.author}: {k.body} <a href={'#/p/' + k.post}>(in {k.post})</a></li>
      ))}</ul>
    </section>
  );
}
