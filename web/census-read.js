// Reading a batch of census files at once: the bytes of files [{name, file}] one after the
// other, their sizes and their names, as census_plan and census_plan_own take them. One read
// of a Blob made of the files costs the browser one round trip to its blob store, where a read
// per file costs one each (docs/performance.md).

/** {bytes: Uint8Array, sizes: Uint32Array, names: string[]} of `files`. */
export async function readBatch(files) {
  const sizes = Uint32Array.from(files, (f) => f.file.size);
  const names = files.map((f) => f.name);
  const buffer = await (files.length === 1 ? files[0].file : new Blob(files.map((f) => f.file))).arrayBuffer();
  return { bytes: new Uint8Array(buffer), sizes, names };
}
