// The Khronos glTF validator (npm gltf-validator) as the tests use it.
import { createRequire } from 'node:module';

const validator = createRequire(import.meta.url)('gltf-validator');

/** Validates a .glb; returns the report and its errors as readable strings. */
export async function validate(bytes, uri) {
  const report = await validator.validateBytes(new Uint8Array(bytes), { uri, maxIssues: 200 });
  const errors = report.issues.messages.filter((m) => m.severity === 0)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`);
  return { report, errors };
}
