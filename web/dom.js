// Building DOM nodes from plain data: properties the element has are set as properties,
// `class` as its class, `on…` as listeners, anything else as an attribute. Text goes in as
// text nodes (never HTML), and null children are left out.

/** An element `tag` with `props`, holding `kids` (nodes or strings). */
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...kids.filter((k) => k != null));
  return e;
}
