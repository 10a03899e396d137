//! Chunk GUIDs: the 16 stored bytes, their text form, and finding one in a file name.

/// The usual 8-4-4-4-12 text: the first three groups are the stored bytes little-endian.
pub fn text(g: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    push_text(g, &mut s);
    s
}

/// `text(g)` written after `out`.
pub fn push_text(g: &[u8; 16], out: &mut String) {
    const ORDER: [usize; 16] = [3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15];
    // Where each byte's two digits go: the dashes are at 8, 13, 18 and 23.
    const AT: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    // Written in place and checked as UTF-8 once (a LOD's GUID is in every MeshSet's facts).
    let mut s = [b'-'; 36];
    for (&k, &at) in ORDER.iter().zip(&AT) {
        let [hi, lo] = crate::show::hex_pair(g[k]);
        s[at] = hi;
        s[at + 1] = lo;
    }
    out.push_str(std::str::from_utf8(&s).unwrap_or_default());
}

/// The 32 hex digits of the stored bytes in order.
pub fn hex(g: &[u8; 16]) -> String {
    g.iter().map(|b| format!("{b:02x}")).collect()
}

fn hex_bytes(s: &[u8]) -> Option<Vec<u8>> {
    let v = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.chunks_exact(2).map(|p| Some(v(p[0])? << 4 | v(p[1])?)).collect()
}

/// The stored GUID bytes named in a file name, in either form; `None` when there is none.
pub fn from_name(name: &str) -> Option<[u8; 16]> {
    let b = name.as_bytes();
    let is_hex = |c: &u8| c.is_ascii_hexdigit();
    // Text form first: 36 characters with dashes at 8, 13, 18, 23.
    for start in 0..b.len().saturating_sub(35) {
        let w = &b[start..start + 36];
        let dashes = [8, 13, 18, 23].iter().all(|&i| w[i] == b'-');
        let digits = w.iter().enumerate().all(|(i, c)| [8, 13, 18, 23].contains(&i) || is_hex(c));
        let boundary = start == 0 || !is_hex(&b[start - 1]);
        let after = b.get(start + 36).is_none_or(|c| !is_hex(c));
        if dashes && digits && boundary && after {
            let plain: Vec<u8> = w.iter().copied().filter(|&c| c != b'-').collect();
            let t = hex_bytes(&plain)?;
            let mut g = [0u8; 16];
            g[..4].copy_from_slice(&[t[3], t[2], t[1], t[0]]);
            g[4..6].copy_from_slice(&[t[5], t[4]]);
            g[6..8].copy_from_slice(&[t[7], t[6]]);
            g[8..].copy_from_slice(&t[8..16]);
            return Some(g);
        }
    }
    // Then exactly 32 hex digits in a row.
    let mut i = 0;
    while i < b.len() {
        let run = b[i..].iter().take_while(|c| is_hex(c)).count();
        if run == 32 {
            let t = hex_bytes(&b[i..i + 32])?;
            let mut g = [0u8; 16];
            g.copy_from_slice(&t);
            return Some(g);
        }
        i += run.max(1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_name_the_same_bytes() {
        let g: [u8; 16] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
        assert_eq!(text(&g), "04030201-0605-0807-090a-0b0c0d0e0f10");
        assert_eq!(hex(&g), "0102030405060708090a0b0c0d0e0f10");
        assert_eq!(from_name("04030201-0605-0807-090a-0b0c0d0e0f10.chunk"), Some(g));
        assert_eq!(from_name("x_0102030405060708090A0B0C0D0E0F10.chunk"), Some(g));
        assert_eq!(from_name("0102030405060708090a0b0c0d0e0f1.chunk"), None);
        assert_eq!(from_name("box.res"), None);
    }
}
