// One post with its nested comments: vote, save, reply (inline, under any comment), and — in a
// community you moderate — remove, lock and pin with a reason. Every write re-reads the post.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {SaveButton, Votes} from './Votes.jsx';

// Text with its web addresses as links, as a forum draws a post (a phishing post's link too).
function Linked({text}) {
  const parts = text.split(/(https?:\/\/[^\s]+)/);
  return parts.map((part, i) => (i % 2 ? <a key={i} href={part} rel="noopener noreferrer" className="external">{part}</a> : part));
}

function ReplyBox({pid, parent, onDone, onCancel}) {
  const {call, toast} = useWF();
  const [text, setText] = useState('');
  // The draft is kept until the re-read thread shows the comment: a post the server did not keep
  // can be sent again as it was.
  const send = async () => {
    const d = await call('POST', `/posts/${pid}/comments`, {body: text, parent});
    if (!d) return;
    const shown = await onDone(d.id);
    if (shown) setText('');
    toast(d.message, d.id);
  };
  const id = parent ? 'reply-' + parent : 'comment-body';
  return (
    <div className={parent ? 'reply-form' : 'comment-form'}>
      <label htmlFor={id} className={parent ? 'sr' : ''}>{parent ? 'Your reply' : 'Add a comment'}</label>
      <textarea id={id} className={parent ? 'reply-body' : ''} rows={parent ? 3 : 4} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="row">
        <span className={parent ? 'reply-count count' : 'count'} id={parent ? undefined : 'comment-count'}>{text.length} / 10000</span>
        <button type="button" id={parent ? undefined : 'comment-submit'} className={parent ? 'reply-submit' : ''} disabled={!text.trim()} onClick={send}>
          {parent ? 'Reply' : 'Comment'}
        </button>
        {onCancel ? <button type="button" className="secondary reply-cancel" onClick={onCancel}>Cancel</button> : null}
      </div>
    </div>
  );
}

function CommentNode({node, depth, ctx}) {
  const {call, toast} = useWF();
  const [replying, setReplying] = useState(false);
  const k = node.comment;
  const remove = async () => {
    const d = await call('POST', `/comments/${k.id}/mod`, {action: k.removed ? 'approve' : 'remove', reason: ''});
    if (d) { await ctx.reload(); toast(d.message); }
  };
  return (
    <div className="comment" data-id={k.id} data-depth={depth} style={{marginLeft: depth ? 22 : 0}}>
      <div className="c-meta"><span className="author">u/{k.author}</span> · <span className="when">{k.created.slice(0, 16).replace('T', ' ')}</span>
        {k.removed ? <span className="tag removed"> removed</span> : null}</div>
      <div className="c-body">{k.removed && !ctx.moderator ? '[removed by a moderator]' : k.body}</div>
      <div className="actions">
        <Votes kind="comments" rec={k} reread={ctx.reload} />
        {!ctx.locked ? <button type="button" className="reply linkish" onClick={() => setReplying(true)}>Reply</button> : null}
        <SaveButton kind="comments" rec={k} reread={ctx.reload} />
        {ctx.moderator ? <button type="button" className="remove linkish" onClick={remove}>{k.removed ? 'Approve' : 'Remove'}</button> : null}
      </div>
      {replying ? <ReplyBox pid={ctx.pid} parent={k.id} onDone={async (id) => { const shown = holds(await ctx.reload(), id); if (shown) setReplying(false); return shown; }} onCancel={() => setReplying(false)} /> : null}
      {node.children.map((c) => <CommentNode key={c.comment.id} node={c} depth={depth + 1} ctx={ctx} />)}
    </div>
  );
}

// Whether a re-read thread holds comment `id`.
function holds(data, id) {
  return Boolean(data && data.comments.some((k) => k.id === id));
}

// Comments as a tree: children under their parent, each level in the server's order.
function tree(comments) {
  const nodes = new Map(comments.map((c) => [c.id, {comment: c, children: []}]));
  const roots = [];
  for (const c of comments) {
    const n = nodes.get(c.id);
    if (c.parent && nodes.has(c.parent)) nodes.get(c.parent).children.push(n);
    else roots.push(n);
  }
  return roots;
}

function ModTools({post, reload}) {
  const {call, toast} = useWF();
  const [reason, setReason] = useState('');
  // The reason is kept until the re-read post shows the action done (one the server did not
  // keep is sent again with it).
  const act = async (action) => {
    const d = await call('POST', `/posts/${post.id}/mod`, {action, reason});
    if (!d) return;
    const fresh = await reload();
    const [flag, value] = {remove: ['removed', true], approve: ['removed', false], lock: ['locked', true],
      unlock: ['locked', false], pin: ['pinned', true], unpin: ['pinned', false]}[action];
    if (fresh && fresh.post[flag] === value) setReason('');
    toast(d.message);
  };
  return (
    <div id="mod-tools" className="fields">
      <label htmlFor="mod-reason" className="lbl">Moderation reason</label>
      <input id="mod-reason" type="text" value={reason} onChange={(e) => setReason(e.target.value)} />
      <div className="mod-buttons">
        <button type="button" id="mod-remove" onClick={() => act(post.removed ? 'approve' : 'remove')}>{post.removed ? 'Approve post' : 'Remove post'}</button>{' '}
        <button type="button" id="mod-lock" onClick={() => act(post.locked ? 'unlock' : 'lock')}>{post.locked ? 'Unlock' : 'Lock comments'}</button>{' '}
        <button type="button" id="mod-pin" onClick={() => act(post.pinned ? 'unpin' : 'pin')}>{post.pinned ? 'Unpin' : 'Pin to top'}</button>
      </div>
    </div>
  );
}

export function PostPage({pid}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  // Re-read the post; the data read (null on an error), for a caller that checks its write.
  const reload = useCallback(async () => {
    const d = await call('GET', '/posts/' + pid);
    if (d) setData(d);
    return d;
  }, [call, pid]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading the post…</p>;
  const {post, comments, moderator} = data;
  const ctx = {pid, reload, moderator, locked: post.locked};
  const status = [post.removed && 'removed', post.locked && 'locked', post.pinned && 'pinned'].filter(Boolean).join(', ');
  return (
    <article id="post" data-id={post.id}>
      <div className="post-head">
        <Votes kind="posts" rec={post} reread={reload} idPrefix="post-" />
        <div>
          <p className="meta"><a href={'#/c/' + post.community}>r/{post.community}</a> · posted by u/{post.author} · {post.created.slice(0, 16).replace('T', ' ')}</p>
          <h1 id="post-title">{post.title}</h1>
          {post.flair ? <span className="flair">{post.flair}</span> : null}
          <p id="post-status" className="muted">{status ? 'Status: ' + status : ''}</p>
        </div>
      </div>
      <div id="post-body"><Linked text={post.body} /></div>
      <p className="post-actions"><span id="post-ncomments">{post.comments} {post.comments === 1 ? 'comment' : 'comments'}</span> · <SaveButton kind="posts" rec={post} reread={reload} id="post-save" />
        {' · '}<a href={'#/messages/new?to=' + post.author} id="message-author">Message u/{post.author}</a></p>
      {moderator ? <ModTools post={post} reload={reload} /> : null}
      {post.locked ? <p id="locked-note" className="muted">Comments are locked.</p> : <ReplyBox pid={pid} parent={null} onDone={async (id) => holds(await reload(), id)} />}
      <section id="comments">{tree(comments).map((n) => <CommentNode key={n.comment.id} node={n} depth={0} ctx={ctx} />)}</section>
    </article>
  );
}
