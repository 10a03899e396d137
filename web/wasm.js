// Loads the wasm module once and hands out its API (pkg/ is wasm-bindgen --target web).
import init, * as api from '../pkg/meshscope.js';

let ready = null;

export function loadWasm() {
  ready ??= init().then(() => api);
  return ready;
}
