// roamly, BreakingWeb's travel environment (a Booking-like site for stays; seed 003 A.1): search
// with dates and guests, filters, sort and a map, stay pages with room types, booking, trips
// (change, cancel, review), saved stays and messages with the properties, over /api/env/travel.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {parseHash, useHash} from '../../kit/hash.js';
import {Home, Saved} from './Home.jsx';
import {Results} from './Results.jsx';
import {StayPage} from './StayPage.jsx';
import {BookForm} from './BookForm.jsx';
import {Trips} from './Trips.jsx';
import {TripPage} from './TripPage.jsx';
import {Compose, Messages} from './Messages.jsx';

function Header() {
  const {api} = useWF();
  const hash = useHash();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    api('GET', '/messages?folder=inbox').then((d) => { if (d.ok) setUnread(d.unread); });
  }, [api, hash]);
  const nav = [['#/', 'Stays', 'nav-home'], ['#/trips', 'Trips', 'nav-trips'], ['#/saved', 'Saved', 'nav-saved'],
    ['#/messages', 'Messages', 'nav-messages']];
  return (
    <header className="travel">
      <a className="brand" href="#/">roamly</a>
      <nav id="travel-nav" aria-label="roamly">
        {nav.map(([href, text, id]) => (
          <a key={id} id={id} href={href}>{text}{id === 'nav-messages' && unread ? <span className="badge"> ({unread})</span> : null}</a>
        ))}
      </nav>
      <span className="account">Robin Vale</span>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a, b] = parts;
  if (!head) return <Home />;
  if (head === 'search') return <Results key={JSON.stringify(params)} params={params} />;
  if (head === 'stay' && a) return <StayPage key={a + JSON.stringify(params)} hid={a} params={params} />;
  if (head === 'book' && a) return <BookForm key={a} rid={a} params={params} />;
  if (head === 'trips') return <Trips key={params.tab || 'upcoming'} tab={params.tab || 'upcoming'} />;
  if (head === 'trip' && a) return <TripPage key={a} bid={a} />;
  if (head === 'saved') return <Saved />;
  if (head === 'messages' && a === 'new') return <Compose property={params.property || ''} booking={params.booking || ''} />;
  if (head === 'messages') return <Messages key={a || 'inbox'} folder={a === 'sent' ? 'sent' : 'inbox'} open={b} />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function App() {
  return (
    <Shell config={window.WF_ENV} header={<Header />}>
      <View />
    </Shell>
  );
}

createRoot(document.getElementById('root')).render(<App />);
