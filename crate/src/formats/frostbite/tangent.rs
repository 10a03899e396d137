//! Packed tangent space (usage 52), exactly as the description's bit table gives it.

use std::f32::consts::{FRAC_PI_2, SQRT_2};

/// A decoded tangent frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub normal: [f32; 3],
    pub tangent: [f32; 3],
    /// +1 or -1: the bitangent is `sign * (n x t)`.
    pub sign: f32,
}

impl Frame {
    pub fn bitangent(&self) -> [f32; 3] {
        let b = cross(self.normal, self.tangent);
        [b[0] * self.sign, b[1] * self.sign, b[2] * self.sign]
    }
}

/// The two minor axes per code pair: (byte 0's axis, byte 1's axis).
const MINOR: [(usize, usize); 3] = [(2, 1), (0, 2), (0, 1)];
/// Reference axis per code: +z, -z, +x, -x, -x, +x.
const REF: [[f32; 3]; 6] =
    [[0.0, 0.0, 1.0], [0.0, 0.0, -1.0], [1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]];
const SCALE: f32 = 255.0 * SQRT_2;

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalize(a: [f32; 3]) -> [f32; 3] {
    let l = dot(a, a).sqrt();
    if l > 0.0 {
        [a[0] / l, a[1] / l, a[2] / l]
    } else {
        a
    }
}

/// The reference axis made perpendicular to `n`.
fn base_tangent(code: usize, n: [f32; 3]) -> [f32; 3] {
    let r = REF[code];
    let d = dot(n, r);
    normalize([r[0] - n[0] * d, r[1] - n[1] * d, r[2] - n[2] * d])
}

/// Cosine and sine of every angle code (quadrant * 256 + byte 2), and the value of every 9-bit
/// minor component, for decoding many frames. Each entry is computed by the same expression
/// `decode` evaluates, so looking it up gives the same bits.
/// Fixed-size arrays, so that a masked index needs no bounds check.
pub struct AngleTable(Box<[(f32, f32); 1024]>, Box<[f32; 512]>);

impl Default for AngleTable {
    fn default() -> Self {
        let mut angles = Box::new([(0f32, 0f32); 1024]);
        for (c, e) in angles.iter_mut().enumerate() {
            let c = c as u32;
            let a = ((c >> 8) as f32 + (c & 255) as f32 / 255.0) * FRAC_PI_2;
            let (s, co) = a.sin_cos();
            *e = (co, s);
        }
        let mut minor = Box::new([0f32; 512]);
        for (q, e) in minor.iter_mut().enumerate() {
            *e = (q as u32 as f32 - 256.0) / SCALE;
        }
        AngleTable(angles, minor)
    }
}

impl AngleTable {
    /// The table, made on first use and kept: 1,024 `sin_cos` cost more than decoding a small
    /// LOD's frames.
    pub fn shared() -> &'static AngleTable {
        static TABLE: std::sync::OnceLock<AngleTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(AngleTable::default)
    }
}

/// Decodes four bytes; `None` when the axis code is 6 or 7 (not described).
pub fn decode(b: [u8; 4]) -> Option<Frame> {
    let angle = ((b[3] >> 6) as f32 + b[2] as f32 / 255.0) * FRAC_PI_2;
    let (s, co) = angle.sin_cos();
    decode_with(b, co, s)
}

/// `decode` with the angle's cosine and sine looked up in `t`.
#[inline]
pub fn decode_table(b: [u8; 4], t: &AngleTable) -> Option<Frame> {
    let (co, s) = t.0[(((b[3] >> 6) as usize) << 8 | b[2] as usize) & 1023];
    decode_with(b, co, s)
}

#[inline]
fn decode_with(b: [u8; 4], co: f32, s: f32) -> Option<Frame> {
    let code = (b[3] & 7) as usize;
    if code > 5 {
        return None;
    }
    let qa = b[0] as u32 | (((b[3] >> 4) & 1) as u32) << 8;
    let qb = b[1] as u32 | (((b[3] >> 5) & 1) as u32) << 8;
    let a = (qa as f32 - 256.0) / SCALE;
    let c = (qb as f32 - 256.0) / SCALE;
    let major = (1.0 - a * a - c * c).max(0.0).sqrt() * if code & 1 == 1 { -1.0 } else { 1.0 };
    let (ia, ib) = MINOR[code / 2];
    let mut n = [0f32; 3];
    n[code / 2] = major;
    n[ia] = a;
    n[ib] = c;
    let t0 = base_tangent(code, n);
    let nt = cross(n, t0);
    let t = [t0[0] * co + nt[0] * s, t0[1] * co + nt[1] * s, t0[2] * co + nt[2] * s];
    let sign = if b[3] & 8 != 0 { -1.0 } else { 1.0 };
    Some(Frame { normal: n, tangent: t, sign })
}

/// Frames `decode_block` decodes at once: independent lanes the compiler can put side by side
/// in vector registers (the square roots and divisions dominate, and they vectorise).
pub const LANES: usize = 8;

/// What a block of frames decodes to: normals, and tangents with the sign in w. Codes 6 and 7
/// give a zero normal and tangent with sign +1.
pub struct Block {
    pub normals: [[f32; 3]; LANES],
    pub tangents: [[f32; 4]; LANES],
}

impl Default for Block {
    fn default() -> Self {
        Block { normals: [[0.0; 3]; LANES], tangents: [[0.0; 4]; LANES] }
    }
}

/// `decode_table` of `LANES` frames at once, lane by lane through the same operations in the
/// same order (no fused multiply-adds, which Rust never forms by itself), so every lane has the
/// bits the scalar decode gives; the test compares them over every normal code.
pub fn decode_block(b: &[[u8; 4]; LANES], t: &AngleTable, out: &mut Block) {
    type L = [f32; LANES];
    type M = [u32; LANES];
    let z = || [0f32; LANES];
    // Picks a where the mask is set, else b, by bits (so that it vectorises and is exact).
    let pick = |m: u32, a: f32, b: f32| f32::from_bits((a.to_bits() & m) | (b.to_bits() & !m));
    let (mut a, mut c, mut sg, mut co, mut si, mut r0, mut r1, mut r2) = (z(), z(), z(), z(), z(), z(), z(), z());
    let (mut ax0, mut ax1, mut valid): (M, M, M) = ([0; LANES], [0; LANES], [0; LANES]);
    // Gather: table values per lane (an undescribed code reads code 5 and is zeroed below).
    for i in 0..LANES {
        let x = b[i];
        let code = ((x[3] & 7) as usize).min(5);
        let qa = x[0] as usize | (((x[3] >> 4) & 1) as usize) << 8;
        let qb = x[1] as usize | (((x[3] >> 5) & 1) as usize) << 8;
        (a[i], c[i]) = (t.1[qa & 511], t.1[qb & 511]); // 9-bit values: the masks change nothing
        sg[i] = if code & 1 == 1 { -1.0 } else { 1.0 };
        (co[i], si[i]) = t.0[(((x[3] >> 6) as usize) << 8 | x[2] as usize) & 1023];
        [r0[i], r1[i], r2[i]] = REF[code];
        ax0[i] = if code / 2 == 0 { !0 } else { 0 };
        ax1[i] = if code / 2 == 1 { !0 } else { 0 };
        valid[i] = if x[3] & 7 <= 5 { !0 } else { 0 };
    }
    // The major component. `v > 0 ? v : 0` is `v.max(0.0)` here: v is never NaN or -0
    // (1 - a*a is positive, so the difference is +0 when the two are equal).
    let mut major = z();
    for i in 0..LANES {
        let v = 1.0 - a[i] * a[i] - c[i] * c[i];
        major[i] = (if v > 0.0 { v } else { 0.0 }).sqrt() * sg[i];
    }
    // Placed with the minor ones as MINOR gives: axis 0 (major, c, a), 1 (a, major, c),
    // 2 (a, c, major).
    let (mut n0, mut n1, mut n2): (L, L, L) = (z(), z(), z());
    for i in 0..LANES {
        n0[i] = pick(ax0[i], major[i], a[i]);
        n1[i] = pick(ax1[i], major[i], c[i]);
        n2[i] = pick(ax0[i], a[i], pick(ax1[i], c[i], major[i]));
    }
    // The reference axis made perpendicular to the normal and normalised (base_tangent).
    let (mut t0, mut t1, mut t2): (L, L, L) = (z(), z(), z());
    for i in 0..LANES {
        let d = n0[i] * r0[i] + n1[i] * r1[i] + n2[i] * r2[i];
        let u = [r0[i] - n0[i] * d, r1[i] - n1[i] * d, r2[i] - n2[i] * d];
        let l = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        let m = if l > 0.0 { !0 } else { 0 };
        t0[i] = pick(m, u[0] / l, u[0]);
        t1[i] = pick(m, u[1] / l, u[1]);
        t2[i] = pick(m, u[2] / l, u[2]);
    }
    // Turned by the angle about the normal: t0 cos + (n x t0) sin.
    for i in 0..LANES {
        let nt = [n1[i] * t2[i] - n2[i] * t1[i], n2[i] * t0[i] - n0[i] * t2[i], n0[i] * t1[i] - n1[i] * t0[i]];
        let sign = if b[i][3] & 8 != 0 { -1.0 } else { 1.0 };
        let v = valid[i];
        out.normals[i] = [pick(v, n0[i], 0.0), pick(v, n1[i], 0.0), pick(v, n2[i], 0.0)];
        out.tangents[i] = [
            pick(v, t0[i] * co[i] + nt[0] * si[i], 0.0),
            pick(v, t1[i] * co[i] + nt[1] * si[i], 0.0),
            pick(v, t2[i] * co[i] + nt[2] * si[i], 0.0),
            pick(v, sign, 1.0),
        ];
    }
}

/// Encodes a frame: the largest normal axis, the two others in 9 bits, the tangent's angle
/// from the reference axis about the (quantised) normal, and the bitangent sign.
pub fn encode(f: &Frame) -> [u8; 4] {
    let n = normalize(f.normal);
    let mut axis = 0;
    for k in 1..3 {
        if n[k].abs() > n[axis].abs() {
            axis = k;
        }
    }
    let code = axis * 2 + usize::from(n[axis] < 0.0);
    let (ia, ib) = MINOR[axis];
    let q = |v: f32| ((v * SCALE + 256.0).round()).clamp(0.0, 511.0) as u32;
    let (qa, qb) = (q(n[ia]), q(n[ib]));
    let mut b3 = code as u8 | ((qa >> 8) as u8) << 4 | ((qb >> 8) as u8) << 5;
    // The angle is measured about the normal the decoder will see.
    let nq = decode([qa as u8, qb as u8, 0, b3]).map_or(n, |d| d.normal);
    let t0 = base_tangent(code, nq);
    let nt = cross(nq, t0);
    let mut angle = dot(f.tangent, nt).atan2(dot(f.tangent, t0));
    if angle < 0.0 {
        angle += 4.0 * FRAC_PI_2;
    }
    let steps = (angle / FRAC_PI_2 * 255.0).round() as u32; // 255 steps per quadrant
    let (quadrant, frac) = ((steps / 255) % 4, steps % 255);
    b3 |= (quadrant as u8) << 6;
    if f.sign < 0.0 {
        b3 |= 8;
    }
    [qa as u8, qb as u8, frac as u8, b3]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() <= tol)
    }

    #[test]
    fn axis_frames_decode_to_the_axes() {
        // Code 4 (+z), both minor components at their zero 256 (ninth bits set), angle 0:
        // normal +z, tangent the reference axis -x.
        let f = decode([0, 0, 0, 4 | 0x30]).unwrap();
        assert!(close(f.normal, [0.0, 0.0, 1.0], 1e-6));
        assert!(close(f.tangent, [-1.0, 0.0, 0.0], 1e-6));
        assert_eq!(f.sign, 1.0);
        // Quadrant 1 turns the tangent 90 degrees about +z: n x t0 = z x -x = -y.
        let f = decode([0, 0, 0, 4 | 0x30 | 0x40 | 8]).unwrap();
        assert!(close(f.tangent, [0.0, -1.0, 0.0], 1e-6));
        assert_eq!(f.sign, -1.0);
        // Code 1 (-x): reference -z; byte 0 is z, byte 1 is y.
        let f = decode([0, 0, 0, 1 | 0x30]).unwrap();
        assert!(close(f.normal, [-1.0, 0.0, 0.0], 1e-6));
        assert!(close(f.tangent, [0.0, 0.0, -1.0], 1e-6));
        assert!(decode([0, 0, 0, 6]).is_none());
    }

    #[test]
    fn minor_components_use_their_zero_at_256() {
        // q = 256 + 100 on byte 0's axis (z for code 0): (100)/(255 sqrt 2).
        let f = decode([100, 0, 0, 0x30]).unwrap();
        assert!((f.normal[2] - 100.0 / (255.0 * SQRT_2)).abs() < 1e-6);
        assert!((f.normal[1]).abs() < 1e-6);
        let len = dot(f.normal, f.normal).sqrt();
        assert!((len - 1.0).abs() < 1e-5);
    }

    /// A deterministic stream of numbers in [-1, 1).
    fn rng(seed: &mut u64) -> f32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((*seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    #[test]
    fn decode_of_encode_is_the_frame_within_a_step() {
        let mut s = 7u64;
        for _ in 0..20_000 {
            let n = normalize([rng(&mut s), rng(&mut s), rng(&mut s)]);
            let r = normalize([rng(&mut s), rng(&mut s), rng(&mut s)]);
            let d = dot(r, n);
            let t = normalize([r[0] - n[0] * d, r[1] - n[1] * d, r[2] - n[2] * d]);
            let sign = if rng(&mut s) < 0.0 { -1.0 } else { 1.0 };
            let f = Frame { normal: n, tangent: t, sign };
            let b = encode(&f);
            let g = decode(b).unwrap();
            // Bytes an encoder wrote come back byte for byte, unless the normal lies between
            // two axes and quantisation tipped it to the other one (its second encoding).
            if encode(&g) != b {
                let mut a = g.normal.map(f32::abs);
                a.sort_by(|x, y| y.total_cmp(x));
                assert!(a[0] - a[1] < 0.006, "{f:?} {b:?} {:?} {g:?}", encode(&g));
            }
            // One 9-bit step is 1/(255 sqrt 2) ~ 0.0028 per minor component; the major one
            // follows; one angle step is 90/255 degrees ~ 0.0062 rad, plus the normal's error.
            assert!(close(g.normal, n, 0.004), "{f:?} -> {g:?}");
            assert!(close(g.tangent, t, 0.012), "{f:?} -> {g:?}");
            assert_eq!(g.sign, sign);
        }
    }

    #[test]
    fn re_encoding_a_decoded_frame_gives_its_bytes_or_its_second_encoding() {
        let mut s = 11u64;
        let (mut same, mut second) = (0, 0);
        for _ in 0..100_000 {
            let x = (rng(&mut s).to_bits() >> 5) ^ (s >> 17) as u32;
            let b = x.to_le_bytes();
            let Some(f) = decode(b) else { continue };
            if dot(f.normal, f.normal) < 0.999 {
                continue; // minor components past unit length: no frame encodes to these bytes
            }
            let e = encode(&f);
            if e == b {
                same += 1;
                continue;
            }
            // Otherwise the frame must have two encodings: the quadrant edge (angle byte 255
            // is the next quadrant's 0) or a normal between two axes (a minor component as
            // large as the major one). Both decode to the same frame within a step.
            let code = (b[3] & 7) as usize;
            let major = f.normal[code / 2].abs();
            let (ia, ib) = MINOR[code / 2];
            let between_axes = f.normal[ia].abs() >= major - 0.003 || f.normal[ib].abs() >= major - 0.003;
            assert!(b[2] == 255 || between_axes, "{b:?} re-encodes as {e:?}");
            let g = decode(e).unwrap();
            assert!(close(g.normal, f.normal, 0.003), "{b:?} -> {e:?}");
            assert!(close(g.tangent, f.tangent, 0.012), "{b:?} -> {e:?}");
            assert_eq!(g.sign, f.sign);
            second += 1;
        }
        // Random bytes put many normals between two axes, so only a majority is asked of them.
        assert!(same > 5 * second / 2, "{same} identical, {second} second encodings");
    }

    #[test]
    fn the_table_decodes_as_the_formula() {
        let t = AngleTable::default();
        for b3 in [0x30u8, 0x74, 0xb2, 0xf9] {
            for b2 in [0u8, 1, 128, 254, 255] {
                let b = [17, 200, b2, b3];
                let (x, y) = (decode(b).unwrap(), decode_table(b, &t).unwrap());
                assert!(close(x.tangent, y.tangent, 1e-6) && x.normal == y.normal && x.sign == y.sign);
            }
        }
    }

    #[test]
    fn quadrant_edge_has_two_encodings() {
        let a = decode([0, 0, 255, 4 | 0x30]).unwrap();
        let b = decode([0, 0, 0, 4 | 0x30 | 0x40]).unwrap();
        assert!(close(a.tangent, b.tangent, 1e-5));
        assert_eq!(encode(&a), [0, 0, 0, 4 | 0x30 | 0x40]);
    }

    /// Bit-for-bit: a block lane against the scalar decode of the same bytes.
    fn same_as_scalar(x: [u8; 4], n: [f32; 3], t: [f32; 4]) {
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        match decode(x) {
            Some(f) => {
                assert_eq!(bits(&n), bits(&f.normal), "{x:?} normal");
                assert_eq!(bits(&t[..3]), bits(&f.tangent), "{x:?} tangent");
                assert_eq!(t[3], f.sign, "{x:?} sign");
            }
            None => assert_eq!((n, t), ([0.0; 3], [0.0, 0.0, 0.0, 1.0]), "{x:?}"),
        }
    }

    #[test]
    fn the_block_decode_has_the_scalar_bits_for_every_normal_code() {
        // Every axis code (6 and 7 too) with every pair of 9-bit minor components; the angle
        // byte, quadrant and sign vary with them. Then every angle code and sign on a few
        // normals. Lanes are filled in order, so neighbouring lanes hold different axes.
        let tab = AngleTable::default();
        let mut all = Vec::new();
        for code in 0..8u8 {
            for qa in 0..512u32 {
                for qb in 0..512u32 {
                    let mix = qa.wrapping_mul(2_654_435_761) ^ qb.wrapping_mul(40_503) ^ code as u32;
                    let b3 = code | ((qa >> 8) as u8) << 4 | ((qb >> 8) as u8) << 5 | (mix as u8 & 0xc8);
                    all.push([qa as u8, qb as u8, (mix >> 8) as u8, b3]);
                }
            }
        }
        for x in [[0u8, 0, 0, 0x30], [17, 200, 0, 0x12], [255, 3, 0, 0x25], [90, 90, 0, 0x03], [1, 2, 0, 0x34]] {
            for b2 in 0..=255u8 {
                for hi in [0x00u8, 0x40, 0x80, 0xc0, 0x08, 0x48, 0x88, 0xc8] {
                    all.push([x[0], x[1], b2, x[3] | hi]);
                }
            }
        }
        let mut out = Block::default();
        for blk in all.chunks_exact(LANES) {
            let b: [[u8; 4]; LANES] = blk.try_into().unwrap();
            decode_block(&b, &tab, &mut out);
            for ((x, n), t) in b.iter().zip(&out.normals).zip(&out.tangents) {
                same_as_scalar(*x, *n, *t);
            }
        }
    }
}
