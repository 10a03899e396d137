//! The relocation table (every pointer field as a u32 of its offset minus 16, in record order)
//! and the bundle's resource metadata {table offset, table bytes, trailing bytes, 0}.

use super::pool::BASE;
use crate::error::Result;
use crate::read::Reader;
use crate::span::{Confidence, Elem, Fields, Region};

fn show_entry(b: &[u8]) -> String {
    match b {
        [a, c, d, e] => {
            let v = u32::from_le_bytes([*a, *c, *d, *e]);
            format!("0x{v:x} (field at 0x{:x})", v as u64 + BASE)
        }
        _ => String::new(),
    }
}

/// Reads `count` entries at absolute `at`; the table is one region.
pub fn read(f: &mut Fields, file: &Reader, at: usize, count: usize) -> Result<Vec<u32>> {
    let n = file
        .from(at)
        .and_then(|r| r.check_count(count as u64, 4, "relocation"))
        .map_err(|e| e.at_path("relocation"))?;
    let mut r = file.window(at, n).map_err(|e| e.at_path("relocation"))?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(r.u32()?);
    }
    f.add_region(Region {
        start: at as u64,
        stride: 4,
        count: count as u64,
        path: "relocation".into(),
        elems: vec![Elem {
            offset: 0,
            len: 4,
            name: String::new(),
            ty: "u32".into(),
            confidence: Confidence::Proven,
            note: "Every pointer field as a u32 of its offset minus 16, in record order.".into(),
            format: show_entry,
        }],
    });
    Ok(out)
}

/// Resource metadata as 16 bytes.
pub fn meta_bytes(m: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (k, v) in m.iter().enumerate() {
        out[k * 4..k * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    out
}

/// Reads a 16-byte `NAME.resmeta` file; `None` when it is not 16 bytes.
pub fn read_meta(b: &[u8]) -> Option<[u32; 4]> {
    let mut r = Reader::new(b);
    if b.len() != 16 {
        return None;
    }
    Some([r.u32().ok()?, r.u32().ok()?, r.u32().ok()?, r.u32().ok()?])
}
