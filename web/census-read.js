// Reading a batch of census files at once: the bytes of files [{name, file}] one after the
// other, their sizes and their names, as census_plan and census_plan_own take them. Each File
// is read on its own, all of the batch at once: neither its size nor a Blob made of the batch
// is asked for first, since either costs the browser a round trip for each File of a dropped
// folder before the read (docs/performance.md).

/** {bytes: Uint8Array, sizes: Uint32Array, names: string[]} of `files`. */
export async function readBatch(files) {
  const names = files.map((f) => f.name);
  const parts = await Promise.all(files.map((f) => f.file.arrayBuffer()));
  const sizes = Uint32Array.from(parts, (p) => p.byteLength);
  if (parts.length === 1) return { bytes: new Uint8Array(parts[0]), sizes, names };
  const bytes = new Uint8Array(sizes.reduce((n, s) => n + s, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return { bytes, sizes, names };
}
