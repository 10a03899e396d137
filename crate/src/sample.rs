//! The page's built-in sample: a small mesh made by our own code, never a game file.
//!
//! Until the `.ply` writer lands this lays the bytes out by hand after the vendor
//! description (EPLY, BNDS, MESH, VERT, INDX): a low-poly torus, position + normal + UV0.

fn push_f32s(out: &mut Vec<u8>, v: &[f32]) {
    for x in v {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// Vertices (position, normal, uv) and triangle indices of a torus.
pub fn torus(rings: u32, sides: u32, r_big: f32, r_small: f32) -> (Vec<[f32; 8]>, Vec<u16>) {
    let mut verts = Vec::new();
    for i in 0..=rings {
        let u = i as f32 / rings as f32 * std::f32::consts::TAU;
        for j in 0..=sides {
            let v = j as f32 / sides as f32 * std::f32::consts::TAU;
            let (cu, su, cv, sv) = (u.cos(), u.sin(), v.cos(), v.sin());
            let p = [(r_big + r_small * cv) * cu, r_small * sv, (r_big + r_small * cv) * su];
            let n = [cv * cu, sv, cv * su];
            verts.push([p[0], p[1], p[2], n[0], n[1], n[2], i as f32 / rings as f32, j as f32 / sides as f32]);
        }
    }
    let mut idx = Vec::new();
    let row = sides + 1;
    for i in 0..rings {
        for j in 0..sides {
            let a = (i * row + j) as u16;
            let b = ((i + 1) * row + j) as u16;
            idx.extend_from_slice(&[a, a + 1, b, b, a + 1, b + 1]);
        }
    }
    (verts, idx)
}

pub fn sample_ply() -> Vec<u8> {
    let (verts, idx) = torus(24, 12, 1.0, 0.35);
    let mut out = Vec::new();
    out.extend_from_slice(b"EPLY");
    out.extend_from_slice(b"BNDS");
    push_f32s(&mut out, &[-1.35, -0.35, -1.35, 1.35, 0.35, 1.35]);
    out.extend_from_slice(b"MESH");
    out.extend_from_slice(&0x0000_0112u32.to_le_bytes()); // position, normal, one UV set
    out.extend_from_slice(&0u32.to_le_bytes()); // face_start
    out.extend_from_slice(&((idx.len() / 3) as u32).to_le_bytes()); // face_count
    out.extend_from_slice(&0u32.to_le_bytes()); // mesh_flags
    let tex = b"meshscope_checker.dds";
    out.push(tex.len() as u8);
    out.extend_from_slice(tex);
    out.extend_from_slice(b"VERT");
    out.extend_from_slice(&(verts.len() as u32).to_le_bytes());
    out.extend_from_slice(&32u16.to_le_bytes());
    out.extend_from_slice(&0x0003u16.to_le_bytes());
    for v in &verts {
        push_f32s(&mut out, v);
    }
    out.extend_from_slice(b"INDX");
    out.extend_from_slice(&(idx.len() as u32).to_le_bytes());
    for i in &idx {
        out.extend_from_slice(&i.to_le_bytes());
    }
    out
}
