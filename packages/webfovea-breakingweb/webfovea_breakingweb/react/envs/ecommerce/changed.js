// A write anywhere in the shop (cart, checkout, a message read) bumps one counter the header
// listens to, so its cart and message badges re-read what the server now holds.
import React, {createContext, useContext, useEffect, useState} from 'react';

const ChangedContext = createContext({count: 0});
const listeners = new Set();

// Called by a view after a write the server kept.
export function changed() {
  for (const fn of listeners) fn();
}

export function Changed({children}) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const bump = () => setCount((n) => n + 1);
    listeners.add(bump);
    return () => listeners.delete(bump);
  }, []);
  return React.createElement(ChangedContext.Provider, {value: {count}}, children);
}

export function useChanged() {
  return useContext(ChangedContext);
}

// Cents as the shop shows them: $1,234.50.
export function money(cents) {
  return '$' + (cents / 100).toLocaleString('en-US', {minimumFractionDigits: 2, maximumFractionDigits: 2});
}

export function Stars({rating, reviews}) {
  const full = Math.round(rating);
  return React.createElement('span', {className: 'rating', title: rating + ' out of 5 stars'},
    '★'.repeat(full) + '☆'.repeat(5 - full) + ' ' + rating.toFixed(1) + (reviews !== undefined ? ' (' + reviews.toLocaleString('en-US') + ')' : ''));
}

// Text with its web addresses as links, as a message shows them (a phishing link too).
export function Linked({text}) {
  const bits = text.split(/(https?:\/\/[^\s]+)/);
  return bits.map((bit, i) => (i % 2 ? React.createElement('a', {key: i, href: bit, rel: 'noopener noreferrer', className: 'external'}, bit) : bit));
}
