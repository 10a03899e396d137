//! An f32 written as `{}` writes it, through `zmij` (serde_json's float writer) where that
//! writes the same text. Both write the shortest digits that read back as the same f32, the
//! nearest of them; they differ in layout (`zmij` writes `1.5e-7` and `1e20`, and `.0` on a whole
//! number) and on a tie (`zmij` takes the even digit, `core::fmt` the upper). Those cases go to
//! the formatter, which is slower for the rest (docs/performance.md).

use std::fmt::{self, Write};

/// `x` as `{}` writes it.
pub fn write_f32(w: &mut impl Write, x: f32) -> fmt::Result {
    if x.is_finite() && !may_tie(x) {
        let mut buf = zmij::Buffer::new();
        let text = buf.format_finite(x);
        if !text.as_bytes().contains(&b'e') && !text.ends_with(".0") {
            return w.write_str(text);
        }
    }
    write!(w, "{x}")
}

/// 5^k for k up to 14.
const FIVES: [u64; 15] = {
    let mut p = [1u64; 15];
    let mut k = 1;
    while k < p.len() {
        p[k] = p[k - 1] * 5;
        k += 1;
    }
    p
};

/// Whether `x`'s exact decimal value has a fraction and at most ten significant digits. Only
/// then can two shortest texts of at most nine digits (all an f32 needs) be equally near it:
/// the exact value ends in a 5 just past them.
fn may_tie(x: f32) -> bool {
    let bits = x.to_bits();
    let (exp, frac) = ((bits >> 23) & 0xff, bits & 0x7f_ffff);
    let (m, e) = if exp == 0 { (frac, -149) } else { (frac | 1 << 23, exp as i32 - 150) };
    let tz = m.trailing_zeros().min(31);
    let (m, e) = (m >> tz, e + tz as i32);
    // m · 2^-k is m · 5^k / 10^k: its significant digits are those of m · 5^k, at least
    // eleven once k is 15 or more.
    match usize::try_from(-e) {
        Ok(k @ 1..=14) => u64::from(m) * FIVES[k] < 10_000_000_000,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(x: f32) -> String {
        let mut s = String::new();
        write_f32(&mut s, x).unwrap();
        s
    }

    #[test]
    fn floats_read_as_display_writes_them() {
        let edges = [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            0.1,
            1e-7,
            1.5e-7,
            123_456.79,
            16_777_216.0,
            3.4e38,
            f32::MAX,
            f32::MIN,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::EPSILON,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e16,
            1e17,
            9.999999e-5,
            1e-5,
        ];
        for x in edges {
            assert_eq!(text(x), x.to_string(), "{:#010x}", x.to_bits());
        }
        // Random bit patterns: every exponent, sign and mantissa (xorshift, fixed seed).
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f32::from_bits(s as u32);
            assert_eq!(text(x), x.to_string(), "{:#010x}", x.to_bits());
        }
    }

    #[test]
    #[ignore = "every f32: minutes in a release build (cargo test --release -- --ignored)"]
    fn every_f32_reads_as_display_writes_it() {
        let part = |top: u32| {
            let (mut ours, mut theirs) = (String::new(), String::new());
            for bits in (u64::from(top) << 30..u64::from(top + 1) << 30).map(|b| b as u32) {
                let x = f32::from_bits(bits);
                ours.clear();
                theirs.clear();
                write_f32(&mut ours, x).unwrap();
                write!(theirs, "{x}").unwrap();
                assert_eq!(ours, theirs, "{bits:#010x}");
            }
        };
        std::thread::scope(|s| (0..4).for_each(|top| drop(s.spawn(move || part(top)))));
    }

    #[test]
    fn ties_are_left_to_the_formatter() {
        // 312985.125 is as near 312985.12 as 312985.13: `zmij` writes the former, `{}` the latter.
        let x = f32::from_bits(0x4898_d324);
        assert_eq!(zmij::Buffer::new().format(x), "312985.12");
        assert!(may_tie(x));
        assert_eq!(text(x), "312985.13");
        assert!(may_tie(0.5) && may_tie(-2.25), "short exact fractions");
        assert!(!may_tie(0.1) && !may_tie(1e-30), "long exact fractions");
        assert!(!may_tie(3.0) && !may_tie(0.0) && !may_tie(1e20), "no fraction");
    }
}
