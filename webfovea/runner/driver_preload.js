// Preloaded into the Playwright driver (Node) of every runner worker: runner/memory.py puts
// `--require` this file into the worker's NODE_OPTIONS.
//
// Playwright's two bundles (coreBundle.js, utilsBundle.js: ~7 million characters) hold a few
// hundred characters above U+00FF (dashes, arrows, box drawing) in strings and comments. One
// such character makes Node keep the whole source as a two-byte string, and V8 keeps a
// script's source for the driver's life (it compiles functions lazily): ~14 MB where one byte
// per character is ~7. Written as \uXXXX escapes those characters mean the same in strings,
// templates, regular expressions, identifiers and comments; only a template's `raw` text and
// `Function.prototype.toString` show the escape. A source where a character follows an odd
// number of backslashes (an escaped character: the rewrite would change its meaning) is
// compiled as it is. Measured: ~8 MiB less RSS per driver (docs/results/memory.md).
'use strict';

const Module = require('module');

const WIDE = /[^\u0000-\u00ff]/;
const MIN_LENGTH = 1 << 16; // small modules are not worth a copy

// The source with every character above U+00FF escaped, as a one-byte string; null when it
// has none, or when one of them cannot be escaped without changing the meaning.
function narrow(source) {
  if (source.length < MIN_LENGTH || !WIDE.test(source)) return null;
  // A plain character class: the driver runs --jitless, so regular expressions are
  // interpreted, and one that can match empty at every position took 2.5 times as long.
  let kept = false;
  const escaped = source.replace(/[^\u0000-\u00ff]/g, (c, at, all) => {
    let slashes = 0;
    while (all.charCodeAt(at - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    kept = true;
    return c;
  });
  if (kept) return null;
  // `replace` keeps its subject's two-byte form: Latin-1 decoding makes a one-byte string.
  return Buffer.from(escaped, 'latin1').toString('latin1');
}

const compile = Module.prototype._compile;
let collecting = false;
Module.prototype._compile = function (content, filename) {
  const one = typeof content === 'string' ? narrow(content) : null;
  if (one !== null) {
    content = one;
    if (!collecting && typeof globalThis.gc === 'function') {
      // The two-byte copies are garbage now, but the driver's heap grows too slowly for V8
      // to run a full collection for a long while: one, once start-up is over.
      collecting = true;
      setTimeout(globalThis.gc, 1000).unref();
    }
  }
  return compile.call(this, content, filename);
};

module.exports = { narrow };
