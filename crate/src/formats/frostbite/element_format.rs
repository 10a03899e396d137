//! VertexElementFormat ids (the list): size, name and decoding to floats.
//! An unknown id is reported as unknown by the caller; nothing here fails on one.

/// Name, byte size and component count of a format id; `None` for an unknown id.
pub fn info(id: u8) -> Option<(&'static str, u8, u8)> {
    Some(match id {
        0x01 => ("Float", 4, 1),
        0x02 => ("Float2", 8, 2),
        0x03 => ("Float3", 12, 3),
        0x04 => ("Float4", 16, 4),
        0x05 => ("Half", 2, 1),
        0x06 => ("Half2", 4, 2),
        0x07 => ("Half3", 6, 3),
        0x08 => ("Half4", 8, 4),
        0x0A => ("Byte4", 4, 4),
        0x0B => ("Byte4N", 4, 4),
        0x0C => ("UByte4", 4, 4),
        0x0D => ("UByte4N", 4, 4),
        0x0E => ("Short", 2, 1),
        0x0F => ("Short2", 4, 2),
        0x10 => ("Short3", 6, 3),
        0x11 => ("Short4", 8, 4),
        0x12 => ("ShortN", 2, 1),
        0x13 => ("Short2N", 4, 2),
        0x14 => ("Short3N", 6, 3),
        0x15 => ("Short4N", 8, 4),
        0x16 => ("UShort2", 4, 2),
        0x17 => ("UShort4", 8, 4),
        0x18 => ("UShort2N", 4, 2),
        0x19 => ("UShort4N", 8, 4),
        0x1A => ("Int", 4, 1),
        0x1B => ("Int2", 8, 2),
        0x1C => ("Int4", 16, 4),
        0x1D => ("IntN", 4, 1),
        0x1E => ("Int2N", 8, 2),
        0x1F => ("Int4N", 16, 4),
        0x20 => ("UInt", 4, 1),
        0x21 => ("UInt2", 8, 2),
        0x22 => ("UInt4", 16, 4),
        0x23 => ("UIntN", 4, 1),
        0x24 => ("UInt2N", 8, 2),
        0x25 => ("UInt4N", 16, 4),
        0x26 => ("Comp3_10_10_10", 4, 3),
        0x27 => ("Comp3N_10_10_10", 4, 3),
        0x28 => ("UComp3_10_10_10", 4, 3),
        0x29 => ("UComp3N_10_10_10", 4, 3),
        0x2A => ("Comp3_11_11_10", 4, 3),
        0x2B => ("Comp3N_11_11_10", 4, 3),
        0x2C => ("UComp3_11_11_10", 4, 3),
        0x2D => ("UComp3N_11_11_10", 4, 3),
        0x2E => ("Comp4_10_10_10_2", 4, 4),
        0x2F => ("Comp4N_10_10_10_2", 4, 4),
        0x30 => ("UComp4_10_10_10_2", 4, 4),
        0x31 => ("UComp4N_10_10_10_2", 4, 4),
        0x32 => ("UByteN", 1, 1),
        0x33 => ("Int3", 12, 3),
        0x34 => ("UInt3", 12, 3),
        _ => return None,
    })
}

/// IEEE half to f32.
#[inline]
pub fn half_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// f32 to IEEE half, round to nearest even; used by the builder.
pub fn f32_to_half(v: f32) -> u16 {
    half::f16::from_f32(v).to_bits()
}

/// How far a value decoded from format `id` may lie from the value that was stored, at
/// magnitude `m`: half a step for half floats (the step at that magnitude), one step for
/// normalised and plain integers, nothing for f32. With the text a person reads.
pub fn precision(id: u8, m: f32) -> (f32, String) {
    let (tol, step) = step_of(id, m);
    let text = match step {
        Step::Exact => "exact (f32)".into(),
        Step::Half(s) => format!("±0.5 step of f16 at {m} ({s:.3e})"),
        Step::Of(s, what) => format!("±1 step of {what} ({s:.3e})"),
    };
    (tol, text)
}

/// `precision` without its text.
pub fn tolerance(id: u8, m: f32) -> f32 {
    step_of(id, m).0
}

/// The step a tolerance is made of, for its text.
enum Step {
    Exact,
    /// Half a step of f16 at the magnitude.
    Half(f64),
    /// One step of an integer format.
    Of(f64, &'static str),
}

fn step_of(id: u8, m: f32) -> (f32, Step) {
    let step = |s: f64, what| (s as f32, Step::Of(s, what));
    match id {
        0x01..=0x04 => (0.0, Step::Exact),
        0x05..=0x08 => {
            let h = half::f16::from_f32(m.abs());
            let ulp = if h.is_finite() {
                (half::f16::from_bits(h.to_bits() + 1).to_f32() - h.to_f32()) as f64
            } else {
                f64::INFINITY
            };
            ((ulp / 2.0) as f32, Step::Half(ulp / 2.0))
        }
        0x0B => step(1.0 / 127.0, "8-bit snorm"),
        0x0D | 0x32 => step(1.0 / 255.0, "8-bit unorm"),
        0x12..=0x15 => step(1.0 / 32767.0, "16-bit snorm"),
        0x18 | 0x19 => step(1.0 / 65535.0, "16-bit unorm"),
        0x1D..=0x1F => step(1.0 / i32::MAX as f64, "32-bit snorm"),
        0x23..=0x25 => step(1.0 / u32::MAX as f64, "32-bit unorm"),
        0x27 | 0x2B | 0x2F => step(1.0 / 511.0, "10-bit snorm"),
        0x29 | 0x2D | 0x31 => step(1.0 / 1023.0, "10-bit unorm"),
        _ => step(1.0, "an integer"),
    }
}

fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

fn snorm(v: i32, bits: u32) -> f32 {
    (v as f32 / ((1i64 << (bits - 1)) - 1) as f32).max(-1.0)
}

fn unorm(v: u32, bits: u32) -> f32 {
    v as f32 / ((1u64 << bits) - 1) as f32
}

/// Decodes one element of format `id` from `b` (at least the format's size) into `out`;
/// returns the component count, 0 for an unknown id or too few bytes.
#[inline]
pub fn decode(id: u8, b: &[u8], out: &mut [f32; 4]) -> usize {
    macro_rules! each {
        ($n:expr, $w:expr, $f:expr) => {{
            if b.len() < $n * $w {
                return 0;
            }
            for i in 0..$n {
                let mut a = [0u8; $w];
                a.copy_from_slice(&b[i * $w..i * $w + $w]);
                out[i] = $f(a);
            }
            $n
        }};
    }
    let f32le = |a: [u8; 4]| f32::from_le_bytes(a);
    let half = |a: [u8; 2]| half_to_f32(u16::from_le_bytes(a));
    let i8f = |a: [u8; 1]| a[0] as i8 as f32;
    let i8n = |a: [u8; 1]| snorm(a[0] as i8 as i32, 8);
    let u8f = |a: [u8; 1]| a[0] as f32;
    let u8n = |a: [u8; 1]| unorm(a[0] as u32, 8);
    let i16f = |a: [u8; 2]| i16::from_le_bytes(a) as f32;
    let i16n = |a: [u8; 2]| snorm(i16::from_le_bytes(a) as i32, 16);
    let u16f = |a: [u8; 2]| u16::from_le_bytes(a) as f32;
    let u16n = |a: [u8; 2]| unorm(u16::from_le_bytes(a) as u32, 16);
    let i32f = |a: [u8; 4]| i32::from_le_bytes(a) as f32;
    let i32n = |a: [u8; 4]| (i32::from_le_bytes(a) as f64 / i32::MAX as f64).max(-1.0) as f32;
    let u32f = |a: [u8; 4]| u32::from_le_bytes(a) as f32;
    let u32n = |a: [u8; 4]| (u32::from_le_bytes(a) as f64 / u32::MAX as f64) as f32;
    match id {
        0x01 => each!(1, 4, f32le),
        0x02 => each!(2, 4, f32le),
        0x03 => each!(3, 4, f32le),
        0x04 => each!(4, 4, f32le),
        0x05 => each!(1, 2, half),
        0x06 => each!(2, 2, half),
        0x07 => each!(3, 2, half),
        0x08 => each!(4, 2, half),
        0x0A => each!(4, 1, i8f),
        0x0B => each!(4, 1, i8n),
        0x0C => each!(4, 1, u8f),
        0x0D => each!(4, 1, u8n),
        0x0E => each!(1, 2, i16f),
        0x0F => each!(2, 2, i16f),
        0x10 => each!(3, 2, i16f),
        0x11 => each!(4, 2, i16f),
        0x12 => each!(1, 2, i16n),
        0x13 => each!(2, 2, i16n),
        0x14 => each!(3, 2, i16n),
        0x15 => each!(4, 2, i16n),
        0x16 => each!(2, 2, u16f),
        0x17 => each!(4, 2, u16f),
        0x18 => each!(2, 2, u16n),
        0x19 => each!(4, 2, u16n),
        0x1A => each!(1, 4, i32f),
        0x1B => each!(2, 4, i32f),
        0x1C => each!(4, 4, i32f),
        0x1D => each!(1, 4, i32n),
        0x1E => each!(2, 4, i32n),
        0x1F => each!(4, 4, i32n),
        0x20 => each!(1, 4, u32f),
        0x21 => each!(2, 4, u32f),
        0x22 => each!(4, 4, u32f),
        0x23 => each!(1, 4, u32n),
        0x24 => each!(2, 4, u32n),
        0x25 => each!(4, 4, u32n),
        0x26..=0x31 => {
            if b.len() < 4 {
                return 0;
            }
            let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let widths: [u32; 4] = match id {
                0x26..=0x29 => [10, 10, 10, 0],
                0x2A..=0x2D => [11, 11, 10, 0],
                _ => [10, 10, 10, 2],
            };
            let k = (id - 0x26) % 4; // 0 signed, 1 signed normalized, 2 unsigned, 3 unsigned normalized
            let mut shift = 0;
            let mut n = 0;
            for (i, &w) in widths.iter().enumerate() {
                if w == 0 {
                    break;
                }
                let raw = (v >> shift) & ((1u32 << w) - 1);
                shift += w;
                out[i] = match k {
                    0 => sext(raw, w) as f32,
                    1 => snorm(sext(raw, w), w),
                    2 => raw as f32,
                    _ => unorm(raw, w),
                };
                n = i + 1;
            }
            n
        }
        0x32 => each!(1, 1, u8n),
        0x33 => each!(3, 4, i32f),
        0x34 => each!(3, 4, u32f),
        _ => 0,
    }
}

/// An element's value as text, for spans.
pub fn show(id: u8, b: &[u8]) -> String {
    let mut v = [0f32; 4];
    let n = decode(id, b, &mut v);
    if n == 0 {
        return crate::field::show_hex(b);
    }
    crate::field::show_floats(&v[..n])
}

fn show_fmt<const ID: u8>(b: &[u8]) -> String {
    show(ID, b)
}

macro_rules! table {
    ($($id:literal)*) => {
        /// A plain function showing format `id`, as a region element needs one.
        pub fn shower(id: u8) -> crate::span::ElemFormat {
            match id {
                $($id => show_fmt::<$id>,)*
                _ => crate::field::show_hex,
            }
        }
    };
}
table!(0x01 0x02 0x03 0x04 0x05 0x06 0x07 0x08 0x0A 0x0B 0x0C 0x0D 0x0E 0x0F 0x10 0x11 0x12 0x13
       0x14 0x15 0x16 0x17 0x18 0x19 0x1A 0x1B 0x1C 0x1D 0x1E 0x1F 0x20 0x21 0x22 0x23 0x24 0x25
       0x26 0x27 0x28 0x29 0x2A 0x2B 0x2C 0x2D 0x2E 0x2F 0x30 0x31 0x32 0x33 0x34);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_trip_and_known_values() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x3555), 0.333_251_95);
        for v in [0.0f32, 1.0, -0.5, 0.25, 1000.0, 0.000_061_035_156] {
            assert_eq!(half_to_f32(f32_to_half(v)), v);
        }
    }

    #[test]
    fn precision_is_half_a_half_step_or_one_integer_step() {
        // Halves from 64 to 128 step by 1/16; from 1 to 2 by 1/1024.
        assert_eq!(precision(0x08, 100.0).0, 1.0 / 32.0);
        assert_eq!(precision(0x06, -1.5).0, 1.0 / 2048.0);
        assert_eq!(precision(0x03, 100.0), (0.0, "exact (f32)".to_string()));
        assert_eq!(precision(0x15, 0.3).0, 1.0 / 32767.0);
        assert_eq!(precision(0x0D, 0.3).0, 1.0 / 255.0);
        assert_eq!(precision(0x11, 7.0).0, 1.0);
        assert_eq!(precision(0x08, 1e6).0, f32::INFINITY, "past the largest half");
        for (id, m) in [(0x08, 100.0), (0x06, -1.5), (0x03, 1.0), (0x15, 0.3), (0x11, 7.0), (0x08, 1e6)] {
            assert_eq!(tolerance(id, m), precision(id, m).0);
        }
    }

    #[test]
    fn every_listed_id_decodes_its_size() {
        let bytes = [0x55u8; 16];
        for id in 0..=255u8 {
            let mut out = [0f32; 4];
            match info(id) {
                Some((_, size, comps)) => {
                    assert_eq!(decode(id, &bytes[..size as usize], &mut out), comps as usize, "{id:#x}");
                    assert_eq!(decode(id, &bytes[..size as usize - 1], &mut out), 0, "{id:#x} short");
                }
                None => assert_eq!(decode(id, &bytes, &mut out), 0),
            }
        }
        assert!(info(0x09).is_none() && info(0x35).is_none());
    }

    #[test]
    fn packed_formats() {
        let mut o = [0f32; 4];
        // x = 511 (max signed 10-bit), y = -512 (0x200), z = 1.
        let v: u32 = 511 | (0x200 << 10) | (1 << 20);
        assert_eq!(decode(0x26, &v.to_le_bytes(), &mut o), 3);
        assert_eq!(o[..3], [511.0, -512.0, 1.0]);
        decode(0x27, &v.to_le_bytes(), &mut o);
        assert_eq!(o[..3], [1.0, -1.0, 1.0 / 511.0]);
        let v: u32 = 2047 | (1023 << 22); // x = 2047, y = 0, z = 1023
        decode(0x2D, &v.to_le_bytes(), &mut o);
        assert_eq!(o[..3], [1.0, 0.0, 1.0]);
        let v: u32 = 1023 | (3 << 30);
        assert_eq!(decode(0x31, &v.to_le_bytes(), &mut o), 4);
        assert_eq!(o, [1.0, 0.0, 0.0, 1.0]);
        decode(0x0D, &[255, 0, 51, 255], &mut o);
        assert_eq!(o, [1.0, 0.0, 0.2, 1.0]);
        decode(0x15, &[0xff, 0x7f, 0x00, 0x80, 0, 0, 1, 0], &mut o);
        assert_eq!(o[..2], [1.0, -1.0]);
    }
}
