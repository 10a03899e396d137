// Go to offset and find bytes (hex) or text. The search runs in the document worker's wasm
// (crate/src/search.rs), so a 512 MB file is searched without copying it to JS.
import { state, select, setStatus } from './state.js';
import { docs } from './docs.js';

/** Parses "0x1f0", "1f0h", "$1f0", "496" or a bare hex string with letters; null if not a number. */
export function parseOffset(s) {
  const t = s.trim().toLowerCase().replace(/[_\s]/g, '');
  let m;
  if ((m = /^(?:0x|\$)([0-9a-f]+)$/.exec(t)) || (m = /^([0-9a-f]+)h$/.exec(t))) return parseInt(m[1], 16);
  if (/^[0-9]+$/.test(t)) return parseInt(t, 10);
  if (/^[0-9a-f]+$/.test(t)) return parseInt(t, 16);
  return null;
}

/** Parses "de ad be ef", "DEADBEEF" or "de,ad" into bytes; null if not whole hex bytes. */
export function parseHex(s) {
  const t = s.replace(/0x/gi, '').replace(/[\s,]/g, '');
  if (!t || t.length % 2 || !/^[0-9a-f]+$/i.test(t)) return null;
  return Uint8Array.from(t.match(/../g), (h) => parseInt(h, 16));
}

export function attachSearch({ form, gotoInput, findInput, modeSelect, prev, next, hexEl }) {
  gotoInput.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const doc = state.docs.find((d) => d.handle === state.active);
    const o = parseOffset(gotoInput.value);
    if (!doc || o == null) { setStatus(`not an offset: ${gotoInput.value}`); return; }
    if (o >= doc.size) { setStatus(`0x${o.toString(16)} is past the end (0x${doc.size.toString(16)} bytes)`); return; }
    select(o, o + 1, 'goto');
    hexEl.focus({ preventScroll: true });
  });

  const find = async (backward) => {
    const doc = state.docs.find((d) => d.handle === state.active);
    if (!doc) return;
    const needle = modeSelect.value === 'hex' ? parseHex(findInput.value) : new TextEncoder().encode(findInput.value);
    if (!needle || !needle.length) { setStatus(`not hex bytes: ${findInput.value}`); return; }
    const sel = state.selection?.handle === doc.handle ? state.selection : null;
    const from = backward ? (sel ? sel.start : doc.size) : (sel ? sel.start + 1 : 0);
    setStatus('searching…');
    const t0 = performance.now();
    const hit = await docs.find(doc.handle, needle, from, backward);
    if (state.active !== doc.handle) return;
    const ms = (performance.now() - t0).toFixed(0);
    if (hit < 0) { setStatus(`not found: ${findInput.value}`); return; }
    select(hit, hit + needle.length, 'find');
    setStatus(`found at 0x${hit.toString(16)} (${ms} ms)`);
  };
  findInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); find(e.shiftKey); }
  });
  prev.addEventListener('click', () => find(true));
  next.addEventListener('click', () => find(false));
  form.addEventListener('submit', (e) => e.preventDefault());

  document.addEventListener('keydown', (e) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 'g') { e.preventDefault(); gotoInput.focus(); gotoInput.select(); }
    else if (mod && e.key.toLowerCase() === 'f') { e.preventDefault(); findInput.focus(); findInput.select(); }
    else if (e.key === 'F3') { e.preventDefault(); find(e.shiftKey); }
  });
}
