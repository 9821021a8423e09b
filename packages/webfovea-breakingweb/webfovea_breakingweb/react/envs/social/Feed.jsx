// The post lists (home feed, all, a community, search results) and the communities directory.
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {SaveButton, Votes} from './Votes.jsx';

export function PostRow({post, reread}) {
  return (
    <article className="post" data-id={post.id}>
      <Votes kind="posts" rec={post} reread={reread} />
      <div className="body">
        <a className="title" href={'#/p/' + post.id}>{post.title}</a>
        {post.flair ? <span className="flair">{post.flair}</span> : null}
        {post.pinned ? <span className="tag pinned">Pinned</span> : null}
        {post.removed ? <span className="tag removed">Removed</span> : null}
        <div className="meta">
          <a href={'#/c/' + post.community} className="community">r/{post.community}</a> · posted by u/{post.author} · <span className="when">{post.created.slice(0, 16).replace('T', ' ')}</span>
          {' · '}<a href={'#/p/' + post.id} className="ncomments">{post.comments} {post.comments === 1 ? 'comment' : 'comments'}</a> · <SaveButton kind="posts" rec={post} reread={reread} />
        </div>
      </div>
    </article>
  );
}

export function Feed({feed, community, q, sort}) {
  const {call, toast} = useWF();
  const [posts, setPosts] = useState(null);
  const [info, setInfo] = useState(null);
  const order = sort || 'hot';
  const reload = useCallback(async () => {
    const d = await call('GET', '/posts' + qs({feed, community, q, sort: order}));
    if (d) setPosts(d.posts);
    if (community) {
      const c = await call('GET', '/communities');
      if (c) setInfo(c.communities.find((x) => x.name === community) || null);
    }
  }, [call, feed, community, q, order]);
  useEffect(() => { reload(); }, [reload]);
  const base = community ? '#/c/' + community : q !== undefined ? '#/search' : feed === 'all' ? '#/all' : '#/';
  const setSort = (s) => go(base + qs({q, sort: s}));
  const join = async () => {
    const d = await call('POST', `/communities/${community}/join`, {joined: !info.joined});
    if (d) { await reload(); toast(d.message); }
  };
  const title = community ? 'r/' + community : q !== undefined ? `Search: “${q}”` : feed === 'all' ? 'All posts' : 'Home';
  return (
    <section id="feed">
      <div className="feed-head">
        <h1 id="feed-title">{title}</h1>
        {info ? (
          <div id="community-info">
            <p className="desc">{info.title} — {info.description}</p>
            <p><span id="members">{info.members.toLocaleString('en-US')} members</span>{info.moderator ? <span className="tag mod"> You moderate this community</span> : null}</p>
            <button type="button" id="join" onClick={join}>{info.joined ? 'Leave' : 'Join'}</button>{' '}
            <a href={'#/submit?community=' + community} id="post-here">Create a post here</a>
          </div>
        ) : null}
        <label htmlFor="sort">Sort by</label>{' '}
        <select id="sort" value={order} onChange={(e) => setSort(e.target.value)}>
          <option value="hot">Hot</option><option value="new">New</option><option value="top">Top</option>
        </select>
      </div>
      {posts === null ? <p className="muted">Loading posts…</p> : (
        <div id="posts" data-count={posts.length}>
          <p id="feed-info" className="muted">{posts.length} posts</p>
          {posts.map((p) => <PostRow key={p.id} post={p} reread={reload} />)}
        </div>
      )}
    </section>
  );
}

export function Communities() {
  const {call, toast} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/communities');
    if (d) setList(d.communities);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const flip = async (c) => {
    const d = await call('POST', `/communities/${c.name}/join`, {joined: !c.joined});
    if (d) { await reload(); toast(d.message); }
  };
  if (!list) return <p className="muted">Loading…</p>;
  return (
    <section>
      <h1>Communities</h1>
      <table id="communities" className="data">
        <thead><tr><th>Community</th><th>About</th><th>Members</th><th /></tr></thead>
        <tbody>{list.map((c) => (
          <tr key={c.id} data-name={c.name}>
            <td><a href={'#/c/' + c.name}>r/{c.name}</a>{c.moderator ? <span className="tag mod"> mod</span> : null}</td>
            <td>{c.description}</td><td className="members">{c.members.toLocaleString('en-US')}</td>
            <td><button type="button" className="join" onClick={() => flip(c)}>{c.joined ? 'Leave' : 'Join'}</button></td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}
