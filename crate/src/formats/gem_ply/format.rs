//! Small formatters for region elements: each gets exactly the element's bytes.

use crate::field::{show_floats, show_hex};

fn le_u(b: &[u8]) -> u64 {
    b.iter().rev().fold(0u64, |acc, &x| (acc << 8) | x as u64)
}

/// One little-endian unsigned integer of any width up to 8 bytes.
pub fn uint(b: &[u8]) -> String {
    le_u(b).to_string()
}

pub fn f32s(b: &[u8]) -> String {
    let v: Vec<f32> = b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    show_floats(&v)
}

pub fn u8s(b: &[u8]) -> String {
    format!("{b:?}")
}

pub fn i16s(b: &[u8]) -> String {
    let v: Vec<i16> = b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
    format!("{v:?}")
}

pub fn halfs(b: &[u8]) -> String {
    let v: Vec<f32> = b.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32()).collect();
    show_floats(&v)
}

/// UNORM8: bytes and their 0..1 values.
pub fn unorm8(b: &[u8]) -> String {
    let v: Vec<f32> = b.iter().map(|&x| x as f32 / 255.0).collect();
    format!("{b:?} = {}", show_floats(&v))
}

pub fn rgba(b: &[u8]) -> String {
    format!("rgba {b:?}")
}

/// A tail of unexplained bytes: hex, and as floats when they come in fours.
pub fn tail(b: &[u8]) -> String {
    if b.len().is_multiple_of(4) {
        format!("{} = f32 {}", show_hex(b), f32s(b))
    } else {
        show_hex(b)
    }
}

pub fn neighbours(b: &[u8]) -> String {
    let parts: Vec<String> = b
        .chunks_exact(2)
        .map(|c| match u16::from_le_bytes([c[0], c[1]]) {
            0xffff => "none".to_string(),
            n => n.to_string(),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

pub fn shadow(b: &[u8]) -> String {
    match b.first() {
        Some(0) => "0 (no shadow)".into(),
        Some(1) => "1 (casts shadow)".into(),
        Some(n) => format!("{n} (not 0 or 1)"),
        None => String::new(),
    }
}

pub fn grid_face(b: &[u8]) -> String {
    let v = le_u(b) as u16;
    let sub = v & 0x7fff;
    if v & 0x8000 != 0 {
        format!("0x{v:04x} (submesh {sub}, invalid)")
    } else {
        format!("0x{v:04x} (submesh {sub})")
    }
}

/// Weights stored as floats: the implicit last weight is 1 minus their sum.
pub fn weights_f32(b: &[u8]) -> String {
    let v: Vec<f32> = b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let last = 1.0 - v.iter().sum::<f32>();
    format!("{} (last {last})", show_floats(&v))
}

pub fn weights_u8(b: &[u8]) -> String {
    let v: Vec<f32> = b.iter().map(|&x| x as f32 / 255.0).collect();
    let last = 1.0 - v.iter().sum::<f32>();
    format!("{b:?} = {} (last {last})", show_floats(&v))
}
