// Meadowcare MyHealth, BreakingWeb's healthcare environment (a MyChart-like patient portal; seed
// 003 A.1): appointments, messages to the care team, medications and refills, test results,
// billing and forms, over /api/env/healthcare.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {parseHash, useHash} from '../../kit/hash.js';
import {Home} from './Home.jsx';
import {Appointments, CancelAppointment, Reschedule} from './Appointments.jsx';
import {Schedule} from './Schedule.jsx';
import {Compose, Messages} from './Messages.jsx';
import {Medications, RefillRequest} from './Medications.jsx';
import {Results} from './Results.jsx';
import {Billing, PayStatement} from './Billing.jsx';
import {FormPage, Forms} from './Forms.jsx';
import {Profile} from './Profile.jsx';

const NAV = [
  ['#/', 'Home', 'nav-home'], ['#/appointments', 'Visits', 'nav-appointments'], ['#/messages', 'Messages', 'nav-messages'],
  ['#/results', 'Test results', 'nav-results'], ['#/medications', 'Medications', 'nav-medications'],
  ['#/billing', 'Billing', 'nav-billing'], ['#/forms', 'Forms', 'nav-forms'], ['#/profile', 'Profile', 'nav-profile'],
];

function Header() {
  const {api} = useWF();
  const hash = useHash();
  const [info, setInfo] = useState(null);
  useEffect(() => {
    api('GET', '/summary').then((d) => { if (d.ok) setInfo(d); });
  }, [api, hash]);
  const current = '#/' + (parseHash(hash).parts[0] || '');
  return (
    <header className="health">
      <div className="top">
        <a className="brand" href="#/"><span className="leaf">❀</span> Meadowcare <b>MyHealth</b></a>
        {info ? <span className="who">Signed in as {info.name}</span> : null}
      </div>
      <nav id="health-nav" aria-label="MyHealth">
        {NAV.map(([href, text, id]) => (
          <a key={id} id={id} href={href} className={href === current ? 'here' : ''}>{text}
            {id === 'nav-messages' && info && info.unread ? <span className="badge">{info.unread}</span> : null}
          </a>
        ))}
      </nav>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a, b] = parts;
  if (!head) return <Home />;
  if (head === 'appointments' && a && b === 'cancel') return <CancelAppointment key={a} aid={a} />;
  if (head === 'appointments' && a && b === 'reschedule') return <Reschedule key={a} aid={a} />;
  if (head === 'appointments') return <Appointments />;
  if (head === 'schedule') return <Schedule provider={params.provider || ''} />;
  if (head === 'messages' && a === 'new') return <Compose key={(params.to || '') + (params.subject || '')} to={params.to || ''} subject={params.subject || ''} />;
  if (head === 'messages') return <Messages key={a || 'inbox'} folder={a === 'sent' ? 'sent' : 'inbox'} open={b} />;
  if (head === 'medications' && a && b === 'refill') return <RefillRequest key={a} rid={a} />;
  if (head === 'medications') return <Medications />;
  if (head === 'results') return <Results open={a} />;
  if (head === 'billing' && a) return <PayStatement key={a} bid={a} />;
  if (head === 'billing') return <Billing />;
  if (head === 'forms' && a) return <FormPage key={a} fid={a} />;
  if (head === 'forms') return <Forms />;
  if (head === 'profile') return <Profile />;
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
