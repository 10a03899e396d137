// web/state.js declares every event the panels send one another and every piece of shared
// state: the page's modules are read here (statically, in Node) for the events they emit and
// listen to and the state they touch, and each must be declared there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { EV, state, on, emit } from '../web/state.js';

const WEB = new URL('../web/', import.meta.url);
/** A module's source without its comments (a `//` after a space or at a line's start). */
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
const modules = readdirSync(WEB).filter((f) => f.endsWith('.js'))
  .map((f) => ({ file: f, text: code(readFileSync(new URL(f, WEB), 'utf8')) }));

/** The local names a module gives state.js's exports: {on: 'on', emit: 'emit', EV: 'EV', …}. */
function stateImports(text) {
  const out = {};
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/state\.js'/g)) {
    for (const part of m[1].split(',').map((x) => x.trim()).filter(Boolean)) {
      const [name, local = name] = part.split(/\s+as\s+/);
      out[name] = local;
    }
  }
  return out;
}

/** Every on()/emit() call of a module: [{fn, event}] (event: the name, or null when the first
 *  argument is neither a string nor an EV member, so it cannot be checked). */
function eventUses(file, text) {
  const names = file === 'state.js' ? { on: 'on', emit: 'emit', EV: 'EV' } : stateImports(text);
  const uses = [];
  for (const fn of ['on', 'emit']) {
    const local = names[fn];
    if (!local) continue;
    for (const m of text.matchAll(new RegExp(`(?<![\\w.$])${local}\\(\\s*([^,)]*)`, 'g'))) {
      if (file === 'state.js' && /^event$/.test(m[1].trim())) continue; // their own definitions
      const arg = m[1].trim();
      const lit = /^'([^']*)'$|^"([^"]*)"$/.exec(arg);
      const member = names.EV && new RegExp(`^${names.EV}\\.(\\w+)$`).exec(arg);
      const event = lit ? (lit[1] ?? lit[2]) : member ? (EV[member[1]] ?? `EV.${member[1]}`) : null;
      uses.push({ file, fn, arg, event });
    }
  }
  return uses;
}

const declared = new Set(Object.values(EV));
const allUses = modules.flatMap((m) => eventUses(m.file, m.text));

/** What is wrong with a set of uses: undeclared or unreadable events. */
function problems(uses) {
  return uses.filter((u) => u.event == null || !declared.has(u.event)).map((u) => `${u.file}: ${u.fn}(${u.arg})`);
}

test('every event a module emits or listens to is declared in web/state.js', () => {
  assert.ok(allUses.length > 30, `the modules' calls were found (${allUses.length})`);
  assert.deepEqual(problems(allUses), []);
});

test('the check finds an undeclared event, by name or by member, and a name it cannot read', () => {
  const text = "import { on, emit as send, EV as E } from './state.js';\non('no-such-event', f);\nsend(E.nope, 1);\non(E.docs, g);\nsend(name, 2);";
  assert.deepEqual(problems(eventUses('x.js', text)), ["x.js: on('no-such-event')", 'x.js: emit(E.nope)', 'x.js: emit(name)']);
  assert.equal(eventUses('x.js', text).length, 4);
});

test('every declared event is emitted by some module and listened to by some module', () => {
  for (const name of declared) {
    assert.ok(allUses.some((u) => u.fn === 'emit' && u.event === name), `${name} is emitted`);
    assert.ok(allUses.some((u) => u.fn === 'on' && u.event === name), `${name} is listened to`);
  }
});

test('the modules send events through state.js only, not as DOM events of their own', () => {
  const own = modules.filter((m) => /new CustomEvent\(|\.dispatchEvent\(/.test(m.text)).map((m) => m.file);
  assert.deepEqual(own, []);
});

test('every piece of shared state a module reads or sets is declared in web/state.js', () => {
  const used = new Map();
  for (const m of modules) {
    const local = m.file === 'state.js' ? 'state' : stateImports(m.text).state;
    if (!local) continue;
    for (const u of m.text.matchAll(new RegExp(`(?<![\\w.$/])${local}\\.(\\w+)`, 'g'))) used.set(u[1], m.file);
  }
  assert.ok(used.size >= 6, `state reads were found (${[...used.keys()]})`);
  const missing = [...used].filter(([k]) => !Object.hasOwn(state, k)).map(([k, f]) => `${f}: state.${k}`);
  assert.deepEqual(missing, []);
});

test('on() and emit() refuse an event that is not declared', () => {
  assert.throws(() => emit('no-such-event', 1), /not declared in web\/state\.js/);
  assert.throws(() => on('no-such-event', () => {}), /not declared/);
  let got = null;
  const off = on(EV.status, (t) => { got = t; });
  emit(EV.status, 'hello');
  off();
  assert.equal(got, 'hello');
});
