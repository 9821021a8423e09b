// Threadly, BreakingWeb's social environment (a Reddit-like forum; seed 003 A.1): communities,
// posts, nested comments, votes, saved items, messages and moderation, over /api/env/social.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {go, parseHash, useHash} from '../../kit/hash.js';
import {Communities, Feed} from './Feed.jsx';
import {PostPage} from './PostPage.jsx';
import {Messages, Compose} from './Messages.jsx';
import {Saved, Submit} from './Forms.jsx';

function Header({unread}) {
  const [q, setQ] = useState('');
  const nav = [['#/', 'Home', 'nav-home'], ['#/all', 'All', 'nav-all'], ['#/communities', 'Communities', 'nav-communities'],
    ['#/saved', 'Saved', 'nav-saved'], ['#/messages', 'Messages', 'nav-messages'], ['#/submit', 'Create post', 'nav-submit']];
  return (
    <header className="social">
      <a className="brand" href="#/">threadly</a>
      <form id="search" role="search" onSubmit={(e) => { e.preventDefault(); go('#/search?q=' + encodeURIComponent(q)); }}>
        <label htmlFor="search-q" className="sr">Search posts</label>
        <input id="search-q" type="search" placeholder="Search posts" value={q} onChange={(e) => setQ(e.target.value)} />
        <button id="search-go" type="submit">Search</button>
      </form>
      <nav id="social-nav" aria-label="Threadly">
        {nav.map(([href, text, id]) => (
          <a key={id} id={id} href={href}>{text}{id === 'nav-messages' && unread ? <span className="badge"> ({unread})</span> : null}</a>
        ))}
      </nav>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a, b] = parts;
  if (!head) return <Feed key="home" feed="home" sort={params.sort} />;
  if (head === 'all') return <Feed key="all" feed="all" sort={params.sort} />;
  if (head === 'c' && a) return <Feed key={'c' + a} community={a} sort={params.sort} />;
  if (head === 'search') return <Feed key={'s' + params.q} feed="all" q={params.q || ''} sort={params.sort} />;
  if (head === 'p' && a) return <PostPage key={a} pid={a} />;
  if (head === 'communities') return <Communities />;
  if (head === 'saved') return <Saved />;
  if (head === 'submit') return <Submit community={params.community || ''} />;
  if (head === 'messages' && a === 'new') return <Compose to={params.to || ''} />;
  if (head === 'messages') return <Messages key={a || 'inbox'} folder={a === 'sent' ? 'sent' : 'inbox'} open={b} />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function Unread({children}) {
  const {api} = useWF();
  const hash = useHash();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    api('GET', '/messages?folder=inbox').then((d) => { if (d.ok) setUnread(d.unread); });
  }, [api, hash]);
  return children(unread);
}

function App() {
  const config = window.WF_ENV;
  return (
    <Shell config={config} header={<HeaderWithUnread />}>
      <View />
    </Shell>
  );
}

function HeaderWithUnread() {
  return <Unread>{(n) => <Header unread={n} />}</Unread>;
}

createRoot(document.getElementById('root')).render(<App />);
