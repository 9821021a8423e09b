// pinemail, BreakingWeb's email environment (a Gmail-like webmail; seed 003 A.1): inbox and
// folders, labels, conversations, search, compose / reply / forward, archive, read state,
// stars, drafts and sent mail, over /api/env/email.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {go, parseHash, useHash} from '../../kit/hash.js';
import {ThreadList} from './ThreadList.jsx';
import {ThreadPage} from './ThreadPage.jsx';
import {Compose} from './Compose.jsx';
import {Drafts, Labels} from './Folders.jsx';

function Header() {
  const [q, setQ] = useState('');
  return (
    <header className="mail">
      <a className="brand" href="#/inbox">pinemail</a>
      <form id="search" role="search" onSubmit={(e) => { e.preventDefault(); go('#/search?q=' + encodeURIComponent(q)); }}>
        <label htmlFor="search-q" className="sr">Search mail</label>
        <input id="search-q" type="search" placeholder="Search mail" value={q} onChange={(e) => setQ(e.target.value)} />
        <button id="search-go" type="submit">Search</button>
      </form>
    </header>
  );
}

// The folders and labels, with unread counts re-read on every view change (as a webmail does).
function Sidebar() {
  const {api} = useWF();
  const hash = useHash();
  const [info, setInfo] = useState(null);
  useEffect(() => {
    api('GET', '/labels').then((d) => { if (d.ok) setInfo(d); });
  }, [api, hash]);
  const folders = [['inbox', 'Inbox'], ['starred', 'Starred'], ['sent', 'Sent'], ['drafts', 'Drafts'], ['all', 'All mail'], ['trash', 'Trash']];
  const count = (f) => (info && f === 'inbox' && info.unread ? info.unread : info && f === 'drafts' && info.drafts ? info.drafts : 0);
  return (
    <nav id="sidebar" aria-label="Mailboxes">
      <button type="button" id="compose" onClick={() => go('#/compose')}>Compose</button>
      <ul className="folders">
        {folders.map(([f, text]) => (
          <li key={f}><a id={'nav-' + f} href={'#/' + f}>{text}{count(f) ? <span className="count"> {count(f)}</span> : null}</a></li>
        ))}
      </ul>
      <h3>Labels</h3>
      <ul className="labels">
        {(info ? info.labels : []).map((l) => (
          <li key={l.id}><a className="label-link" data-label={l.name} href={'#/label/' + encodeURIComponent(l.name)}>
            <span className="dot" style={{background: l.color}} />{l.name}{l.unread ? <span className="count"> {l.unread}</span> : null}</a></li>
        ))}
      </ul>
      <a id="nav-labels" href="#/labels">Manage labels</a>
    </nav>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a] = parts;
  if (!head || head === 'inbox') return <ThreadList key="inbox" folder="inbox" />;
  if (['starred', 'sent', 'all', 'trash'].includes(head)) return <ThreadList key={head} folder={head} />;
  if (head === 'label' && a) return <ThreadList key={'l' + a} folder="all" label={a} />;
  if (head === 'search') return <ThreadList key={'s' + params.q} folder="all" q={params.q || ''} />;
  if (head === 't' && a) return <ThreadPage key={a} tid={a} />;
  if (head === 'compose') return <Compose key={params.draft || 'new'} draftId={params.draft || ''} to={params.to || ''} />;
  if (head === 'drafts') return <Drafts />;
  if (head === 'labels') return <Labels />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function App() {
  return (
    <Shell config={window.WF_ENV} header={<Header />}>
      <div className="mail-body"><Sidebar /><div id="view"><View /></div></div>
    </Shell>
  );
}

createRoot(document.getElementById('root')).render(<App />);
