// The real samples for the tests that read them: the folder $MESHSCOPE_SAMPLES (absolute, or
// relative to the repository root), by default ../shared/samples beside the repository.
// When it is missing such a test skips with one line saying so, except under CI=true, where it
// runs and fails. A sample that is there but does not decode fails as usual.
//
//   test('…', { skip: needsSamples() }, async () => { assertSamples(); … });
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SAMPLES = join(resolve(ROOT, process.env.MESHSCOPE_SAMPLES || '../shared/samples'), '/');
export const HAVE_SAMPLES = existsSync(SAMPLES);
const MISSING = `no samples at ${SAMPLES}: set MESHSCOPE_SAMPLES to a folder holding gem-ply/ to run this test`;

/** The `skip` option of a test that reads the samples: the reason when the folder is missing,
 * false when it is there, and false under CI=true (the test then fails in assertSamples). */
export const needsSamples = () => (HAVE_SAMPLES || process.env.CI === 'true' ? false : MISSING);

/** Throws when the samples folder is missing (what a test sees under CI=true). */
export function assertSamples() {
  if (!HAVE_SAMPLES) throw new Error(`${MISSING} (CI=true: the samples must be there)`);
}

/** The GEM .ply samples' file names, sorted (throws when the folder is missing). */
export function gemPlyNames() {
  assertSamples();
  return readdirSync(join(SAMPLES, 'gem-ply')).filter((f) => f.endsWith('.ply')).sort();
}

/** A GEM .ply sample's path and its bytes. */
export const gemPlyPath = (name) => join(SAMPLES, 'gem-ply', name);
export function gemPly(name) {
  assertSamples();
  return readFileSync(gemPlyPath(name));
}
