// The client-layer interventions, compiled into every environment's bundle (seed 003 A.1). Inert
// unless the session registers a dispatch list: the shell asks GET <api>/interventions before it
// renders the app, and this component applies the answer's plan once (interventions/iv.js, the
// same code the hand-written apps load), so every family reaches a React app unchanged. It keeps
// to the DOM around React's tree (capture listeners, overlays on <body>, style sheets), which
// React's re-renders do not undo; iv.js re-applies its in-tree changes after every mutation.
import {useEffect} from 'react';
import applyIvPlan from '../../interventions/iv.js';

let applied = false; // once per page load, even if React mounts the component twice

export function Interventions({plan}) {
  useEffect(() => {
    if (!plan || applied) return;
    applied = true;
    applyIvPlan(plan);
  }, [plan]);
  return null;
}
