//! An f32 written as `{}` writes it, through `zmij` (serde_json's float writer) where that
//! writes the same text. Both write the shortest digits that read back as the same f32, the
//! nearest of them; they differ in layout (`zmij` writes `1.5e-7` and `1e20`, and `.0` on a whole
//! number) and on a tie (`zmij` takes the even digit, `core::fmt` the upper). Those cases go to
//! the formatter, which is slower for the rest (docs/performance.md).

use std::fmt::{self, Write};

/// `x` as `{}` writes it.
pub fn write_f32(w: &mut impl Write, x: f32) -> fmt::Result {
    if x.is_finite() {
        let mut buf = zmij::Buffer::new();
        let text = buf.format_finite(x);
        let plain = !text.as_bytes().contains(&b'e') && !text.ends_with(".0");
        let tie = || exact_digits(x).is_some_and(|n| n == significant_digits(text) + 1);
        if plain && !tie() {
            return w.write_str(text);
        }
    }
    write!(w, "{x}")
}

/// The digits of a plain decimal text after its leading zeros (it has no trailing ones).
fn significant_digits(text: &str) -> usize {
    let digits = text.bytes().filter(u8::is_ascii_digit);
    digits.skip_while(|&b| b == b'0').count()
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

/// The number of significant digits of `x`'s exact decimal value, when it has a fraction and
/// at most ten of them (`None` otherwise). Two shortest texts are equally near `x` exactly when
/// this is one more than their digits: the exact value ends in a 5 just past them. Their digits
/// are at most nine (all an f32 needs), so a tie needs at most ten here.
fn exact_digits(x: f32) -> Option<usize> {
    let bits = x.to_bits();
    let (exp, frac) = ((bits >> 23) & 0xff, bits & 0x7f_ffff);
    let (m, e) = if exp == 0 { (frac, -149) } else { (frac | 1 << 23, exp as i32 - 150) };
    let tz = m.trailing_zeros().min(31);
    let (m, e) = (m >> tz, e + tz as i32);
    // m · 2^-k is m · 5^k / 10^k: its significant digits are those of m · 5^k, at least
    // eleven once k is 15 or more.
    let k = usize::try_from(-e).ok().filter(|k| (1..FIVES.len()).contains(k))?;
    let n = u64::from(m) * FIVES[k];
    (n < 10_000_000_000).then(|| n.ilog10() as usize + 1)
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
        assert_eq!(exact_digits(x), Some(9));
        assert_eq!(significant_digits("312985.12"), 8);
        assert_eq!(text(x), "312985.13");
        // Short exact fractions are no tie: `zmij` writes all their digits.
        assert_eq!((exact_digits(0.5), exact_digits(-2.25)), (Some(1), Some(3)));
        assert_eq!(significant_digits("-0.00125"), 3);
        assert_eq!((exact_digits(0.1), exact_digits(1e-30)), (None, None), "long exact fractions");
        assert_eq!((exact_digits(3.0), exact_digits(0.0), exact_digits(1e20)), (None, None, None), "no fraction");
    }
}
