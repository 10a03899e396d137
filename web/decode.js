// Bytes read as an annotation's type guess (the value inspector shows every reading at once).
// Little-endian unless asked; anything too short for its type says so instead of guessing.
import { f16, guids } from './inspector.js';

const hex = (b) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

const SIZES = { u8: 1, i8: 1, u16: 2, i16: 2, f16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8, guid: 16 };

/** Reads `bytes` as `type` (u8..u64, i8..i64, f16, f32, f64, guid, string, bytes). */
export function decodeAs(type, bytes, littleEndian = true) {
  const need = SIZES[type];
  if (need && bytes.length < need) return `(needs ${need} bytes)`;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (type) {
    case 'u8': return String(v.getUint8(0));
    case 'i8': return String(v.getInt8(0));
    case 'u16': return String(v.getUint16(0, littleEndian));
    case 'i16': return String(v.getInt16(0, littleEndian));
    case 'u32': return String(v.getUint32(0, littleEndian));
    case 'i32': return String(v.getInt32(0, littleEndian));
    case 'u64': return String(v.getBigUint64(0, littleEndian));
    case 'i64': return String(v.getBigInt64(0, littleEndian));
    case 'f16': return String(f16(v.getUint16(0, littleEndian)));
    case 'f32': return String(v.getFloat32(0, littleEndian));
    case 'f64': return String(v.getFloat64(0, littleEndian));
    case 'guid': return guids(bytes.subarray(0, 16)).ms;
    case 'string': return JSON.stringify(new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\0+$/, ''));
    default: return hex(bytes.subarray(0, 64)) + (bytes.length > 64 ? '…' : '');
  }
}
