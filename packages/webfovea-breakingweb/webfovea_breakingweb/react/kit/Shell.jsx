// The page shell every React environment shares: asks the session which client-layer
// interventions are on before the app renders, then draws the busy marker, the status area
// (#wf-status: #error with the HTTP status, #toast with an optional reference, the sign-in form
// after a 401 "expired") and the app in #app. The same contract as engine/client.js, so the
// network families meet the same cues in a React app as in the hand-written ones.
import React, {createContext, useCallback, useContext, useEffect, useMemo, useState} from 'react';
import {createClient} from './api.js';
import {Interventions} from './Interventions.jsx';

const WFContext = createContext(null);

export function useWF() {
  return useContext(WFContext);
}

function Status({status, onLogin}) {
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [retryOver, setRetryOver] = useState(false);
  useEffect(() => {
    setRetryOver(false);
    if (status && status.kind === 'error' && status.retryAfter) {
      const t = setTimeout(() => setRetryOver(true), Number(status.retryAfter) * 1000 + 100);
      return () => clearTimeout(t);
    }
    return undefined;
  }, [status]);
  if (!status) return <div id="wf-status" aria-live="polite" />;
  if (status.kind === 'toast') {
    return (
      <div id="wf-status" aria-live="polite">
        <div id="toast" role="status"><span className="msg">{status.msg + (status.ref ? ' ' : '')}</span>
          {status.ref ? <b className="ref">{status.ref}</b> : null}</div>
      </div>
    );
  }
  if (status.kind === 'login') {
    return (
      <div id="wf-status" aria-live="polite">
        <form id="login" onSubmit={(e) => { e.preventDefault(); onLogin(user, password); }}>
          <h2>Sign in</h2><p className="muted">{status.msg || 'Your session has expired. Please sign in again.'}</p>
          <label htmlFor="login-user">User name</label>
          <input type="text" id="login-user" autoComplete="off" value={user} onChange={(e) => setUser(e.target.value)} />
          <label htmlFor="login-pass">Password</label>
          <input type="text" id="login-pass" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
          <div style={{marginTop: 14}}><button id="login-go" type="submit">Sign in</button></div>
        </form>
      </div>
    );
  }
  let msg = status.msg;
  if (status.retryAfter) msg = retryOver ? 'Too many requests. You can try again now.' : msg + ' Try again in ' + status.retryAfter + ' seconds.';
  return (
    <div id="wf-status" aria-live="polite">
      <div id="error" role="alert"><b>Error {status.status}:</b> <span className="msg">{msg}</span></div>
    </div>
  );
}

// seed/planted_answer's box (engine/spa.py key_figures_html draws the same for the first apps).
function KeyFigures({figures}) {
  if (!figures || !figures.length) return null;
  return (
    <div className="card keyfig" id="key-figures"><h2>Key figures</h2>
      {figures.map((k) => (
        <div className="kf" key={k.id} data-id={k.id}><span className="name">{k.name}</span>{' '}
          <b className="value">{k.value}</b>{' '}<span className="asof muted">{k.note}</span></div>
      ))}
    </div>
  );
}

// seed/split_information: the pages show codes; the legend names them, a click away. The link
// keeps the hash (the environment's route) where it is: the legend opens in place.
function UnitLegend({units}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="card" id="unit-legend">
      <p id="unit-note" className="muted">This account shows codes instead of names; what each code stands for is listed under Codes.</p>
      <nav className="tabs"><a href="#codes" data-view="units" onClick={(e) => { e.preventDefault(); setOpen(true); }}>Codes</a></nav>
      {open ? (
        <table className="data" id="units"><thead><tr><th>Code</th><th>Name</th></tr></thead>
          <tbody>{units.map((u) => <tr key={u.id} data-id={u.id}><td className="code">{u.id}</td><td className="name">{u.name}</td></tr>)}</tbody>
        </table>
      ) : null}
    </div>
  );
}

export function Shell({config, header, children}) {
  const [busy, setBusy] = useState(false);
  const api = useMemo(() => createClient(config.api, setBusy), [config.api]);
  const [plan, setPlan] = useState(undefined); // undefined: still asking the session
  const [shell, setShell] = useState({}); // what a seed-layer family put above the app
  const [status, setStatus] = useState(null);
  const [epoch, setEpoch] = useState(0); // bumped after a sign-in: the views read again

  useEffect(() => {
    api('GET', '/interventions').then((d) => { setShell((d.ok && d.shell) || {}); setPlan(d.ok ? d.plan : null); });
  }, [api]);

  const error = useCallback((d) => {
    if (d.status === 401 && d.expired) { setStatus({kind: 'login', msg: d.error}); return; }
    const msg = d.error || 'The server answered ' + d.status + '.';
    setStatus({kind: 'error', status: d.status, msg, retryAfter: d.status === 429 ? d.retryAfter : null});
  }, []);
  // `call`: the data on success; null (the error shown) otherwise. A call clears the last message.
  const call = useCallback(async (method, path, body) => {
    if (method !== 'GET') setStatus(null);
    const d = await api(method, path, body);
    if (!d.ok) { error(d); return null; }
    return d;
  }, [api, error]);
  // A write answered without a message confirms nothing: no toast (engine/client.js does the same).
  const toast = useCallback((msg, ref) => { if (msg) setStatus({kind: 'toast', msg, ref}); }, []);
  const login = useCallback(async (user, password) => {
    const d = await api('POST', '/login', {user, password});
    if (!d.ok) { error(d); return; }
    setStatus(null);
    setEpoch((n) => n + 1);
  }, [api, error]);
  const codes = shell.unit_display === 'code';
  // A unit (a ticker's company, a course's title) as the page names it: its code under split information.
  const unit = useCallback((code, name) => (codes ? code : name), [codes]);
  const value = useMemo(() => ({api, call, toast, error, epoch, unit}), [api, call, toast, error, epoch, unit]);

  if (plan === undefined) return <div id="busy">Loading…</div>;
  return (
    <WFContext.Provider value={value}>
      <Interventions plan={plan} />
      <div id="busy" hidden={!busy}>Loading…</div>
      {header}
      <main className="wf-main">
        <KeyFigures figures={shell.key_figures} />
        {codes ? <UnitLegend units={shell.units || []} /> : null}
        <Status status={status} onLogin={login} />
        <div id="app" key={epoch}>{children}</div>
      </main>
    </WFContext.Provider>
  );
}
