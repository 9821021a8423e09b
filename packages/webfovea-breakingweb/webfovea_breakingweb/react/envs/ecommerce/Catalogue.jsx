// The catalogue: the home page (departments, top-rated picks, your latest messages) and the
// list view of a department or a search, with its facets (brand, price, rating) and sort kept
// in the address (#/c/shoes?brand=Korva&rating=4&sort=price-asc), as a shop's URLs keep them.
import React, {useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {Linked, Stars, money} from './changed.js';

const SORTS = [['featured', 'Featured'], ['price-asc', 'Price: low to high'], ['price-desc', 'Price: high to low'],
  ['rating', 'Avg. customer review'], ['reviews', 'Most reviews']];
const RATINGS = [['', 'Any rating'], ['4', '4 stars & up'], ['3', '3 stars & up'], ['2', '2 stars & up']];

export function ProductCard({p}) {
  return (
    <article className="product" data-id={p.id}>
      <div className="thumb" aria-hidden="true">{p.name.split(' ').slice(-1)[0].slice(0, 1)}</div>
      <a className="title" href={'#/p/' + p.id}>{p.name}</a>
      <div className="brand-line">by <span className="brand">{p.brand}</span></div>
      <Stars rating={p.rating} reviews={p.reviews} />
      <div className="price">{money(p.price)}</div>
      {p.stock === 0 ? <div className="stock out">Currently unavailable</div> : null}
    </article>
  );
}

export function Home() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  useEffect(() => {
    Promise.all([call('GET', '/catalogue'), call('GET', '/products?sort=rating'), call('GET', '/messages')]).then(([c, p, m]) => {
      if (c && p && m) setData({categories: c.categories, picks: p.products.filter((x) => x.stock > 0).slice(0, 8), messages: m.messages.slice(0, 3)});
    });
  }, [call]);
  if (!data) return <p className="muted">Loading…</p>;
  return (
    <section id="home">
      <h1>Welcome to Kestrel</h1>
      <div id="departments">{data.categories.map((c) => <a key={c.id} className="tile" href={'#/c/' + c.slug}>{c.name}</a>)}</div>
      <div className="home-cols">
        <div>
          <h2>Top rated picks</h2>
          <div id="picks" className="grid">{data.picks.map((p) => <ProductCard key={p.id} p={p} />)}</div>
        </div>
        <aside id="inbox-preview">
          <h2>Your messages</h2>
          {data.messages.map((m) => (
            <div key={m.id} className={'preview' + (m.read ? '' : ' unread')} data-id={m.id}>
              <a href={'#/messages/' + m.id} className="subject">{m.subject}</a>
              <div className="muted">From {m.sender}</div>
              <p><Linked text={m.body} /></p>
            </div>
          ))}
          <a href="#/messages">All messages</a>
        </aside>
      </div>
    </section>
  );
}

function Facets({facets, params, set}) {
  const chosen = (params.brand || '').split(',').filter(Boolean);
  const [lo, setLo] = useState(params.min || '');
  const [hi, setHi] = useState(params.max || '');
  const flip = (b) => set({brand: (chosen.includes(b) ? chosen.filter((x) => x !== b) : [...chosen, b]).join(',')});
  return (
    <aside id="facets">
      <h2>Brand</h2>
      <ul className="brands">{facets.brands.map((b) => {
        const id = 'brand-' + b.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
        return (
          <li key={b.name}>
            <input type="checkbox" id={id} className="brand-facet" value={b.name} checked={chosen.includes(b.name)} onChange={() => flip(b.name)} />
            <label htmlFor={id}>{b.name} <span className="muted">({b.count})</span></label>
          </li>
        );
      })}</ul>
      <h2><label htmlFor="facet-rating">Customer reviews</label></h2>
      <select id="facet-rating" value={params.rating || ''} onChange={(e) => set({rating: e.target.value})}>
        {RATINGS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
      </select>
      <h2>Price</h2>
      <form id="price-form" onSubmit={(e) => { e.preventDefault(); set({min: lo, max: hi}); }}>
        <label htmlFor="price-min" className="sr">Minimum price in dollars</label>
        <input id="price-min" type="number" min="0" placeholder="$ Min" value={lo} onChange={(e) => setLo(e.target.value)} />
        <label htmlFor="price-max" className="sr">Maximum price in dollars</label>
        <input id="price-max" type="number" min="0" placeholder="$ Max" value={hi} onChange={(e) => setHi(e.target.value)} />
        <button id="price-go" type="submit">Go</button>
      </form>
      {facets.price_range ? <p className="muted">From {money(facets.price_range[0])} to {money(facets.price_range[1])}</p> : null}
      {chosen.length || params.rating || params.min || params.max ? (
        <p><button type="button" id="clear-filters" className="linkish" onClick={() => set({brand: '', rating: '', min: '', max: ''})}>Clear all filters</button></p>
      ) : null}
    </aside>
  );
}

export function Listing({category, params}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const [name, setName] = useState('');
  // The query as text: the parsed object is new on every render of the view above.
  const query = qs({...params, category});
  useEffect(() => {
    call('GET', '/products' + query).then((d) => d && setData(d));
    if (category) call('GET', '/catalogue').then((d) => d && setName((d.categories.find((c) => c.slug === category) || {}).name || category));
  }, [call, category, query]);
  const base = category ? '#/c/' + category : '#/search';
  const set = (change) => go(base + qs({...params, ...change}));
  if (!data) return <p className="muted">Loading products…</p>;
  const title = category ? name : `Results for “${params.q || ''}”`;
  return (
    <section id="listing" className="with-facets">
      <Facets facets={data.facets} params={params} set={set} />
      <div className="results-col">
        <div className="results-head">
          <h1 id="listing-title">{title}</h1>
          <span id="result-count" className="muted">{data.total} {data.total === 1 ? 'result' : 'results'}</span>
          <label htmlFor="sort">Sort by</label>
          <select id="sort" value={params.sort || 'featured'} onChange={(e) => set({sort: e.target.value})}>
            {SORTS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
          </select>
        </div>
        {data.products.length ? (
          <div id="results" className="grid">{data.products.map((p) => <ProductCard key={p.id} p={p} />)}</div>
        ) : <p id="no-results">No products match these filters.</p>}
      </div>
    </section>
  );
}
