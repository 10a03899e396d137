//! The decoded meshes compared: vertices matched by index (moved further than the tolerance),
//! triangles present on one side only (a triangle is its three indices, whichever comes first).

use super::{Ctx, Difference, Kind, Side};
use crate::field::show_floats;
use crate::fx::FxMap;
use crate::mesh::Lod;

pub(super) fn compare(ctx: &Ctx, out: &mut Vec<Difference>) {
    let (la, lb) = (&ctx.a.mesh.lods, &ctx.b.mesh.lods);
    for l in 0..la.len().max(lb.len()) {
        match (la.get(l), lb.get(l)) {
            (Some(x), Some(y)) => {
                vertices(ctx, l, x, y, out);
                triangles(ctx, l, x, y, out);
            }
            (x, y) => {
                let side = |lod: &Lod| Side {
                    offset: None,
                    len: 0,
                    value: format!("{} vertices, {} triangles", lod.vertex_count(), lod.triangle_count()),
                };
                out.push(
                    geometry(format!("mesh.lod[{l}]"), if x.is_some() { Kind::OnlyA } else { Kind::OnlyB }, "lod")
                        .sides(x.map(side), y.map(side)),
                );
            }
        }
    }
}

fn geometry(path: String, kind: Kind, ty: &str) -> Difference {
    Difference {
        path,
        kind,
        ty: ty.into(),
        confidence: None,
        a: None,
        b: None,
        delta: Vec::new(),
        changed: None,
        note: String::new(),
    }
}

impl Difference {
    fn sides(mut self, a: Option<Side>, b: Option<Side>) -> Difference {
        self.a = a;
        self.b = b;
        self
    }
}

fn text(v: String) -> Side {
    Side { offset: None, len: 0, value: v }
}

/// How a vertex moved from A to B.
struct Movement {
    /// B minus A per component.
    delta: [f64; 3],
    /// The distance (NaN where a position is).
    distance: f64,
    /// A position is NaN on one side only (then it has moved).
    nan_on_one_side: bool,
}

fn movement(p: [f32; 3], q: [f32; 3]) -> Movement {
    let delta = [0, 1, 2].map(|c| q[c] as f64 - p[c] as f64);
    let distance = (delta[0] * delta[0] + delta[1] * delta[1] + delta[2] * delta[2]).sqrt();
    Movement { delta, distance, nan_on_one_side: (0..3).any(|c| p[c].is_nan() != q[c].is_nan()) }
}

/// The positions of the vertices both LODs have, matched by index: (A's, B's).
fn matched<'a>(x: &'a Lod, y: &'a Lod) -> impl Iterator<Item = ([f32; 3], [f32; 3])> + 'a {
    let xyz = |c: &[f32]| [c[0], c[1], c[2]];
    x.positions.chunks_exact(3).zip(y.positions.chunks_exact(3)).map(move |(p, q)| (xyz(p), xyz(q)))
}

/// How far each vertex both LODs have (matched by index) moved from A to B: what the page's
/// 3D view colors by (infinite where a position is NaN on one side only).
pub fn distances(x: &Lod, y: &Lod) -> Vec<f32> {
    matched(x, y)
        .map(|(p, q)| match movement(p, q) {
            Movement { nan_on_one_side: true, .. } => f32::INFINITY,
            Movement { distance, .. } if distance.is_nan() => 0.0,
            Movement { distance, .. } => distance as f32,
        })
        .collect()
}

fn vertices(ctx: &Ctx, l: usize, x: &Lod, y: &Lod, out: &mut Vec<Difference>) {
    let n = x.vertex_count().min(y.vertex_count());
    let tol = ctx.opts.tolerance as f64;
    let summary = out.len();
    let (mut moved, mut furthest) = (0u64, 0f64);
    for (i, (p, q)) in matched(x, y).enumerate() {
        let m = movement(p, q);
        if !(m.distance > tol || m.nan_on_one_side) {
            continue;
        }
        moved += 1;
        furthest = furthest.max(m.distance);
        if moved <= ctx.opts.listed as u64 {
            let mut v = geometry(format!("mesh.lod[{l}].vertex[{i}]"), Kind::Moved, "vertex")
                .sides(Some(text(show_floats(&p))), Some(text(show_floats(&q))));
            v.delta = m.delta.to_vec();
            v.note = format!("moved {}", m.distance as f32);
            out.push(v);
        }
    }
    let (cx, cy) = (x.vertex_count(), y.vertex_count());
    if moved == 0 && cx == cy {
        return;
    }
    let mut s = geometry(format!("mesh.lod[{l}].vertices"), Kind::Moved, "vertices")
        .sides(Some(text(format!("{cx} vertices"))), Some(text(format!("{cy} vertices"))));
    s.changed = Some(moved);
    s.note = format!("{moved} of {n} moved further than {}, at most {}", ctx.opts.tolerance, furthest as f32);
    if cx != cy {
        s.delta = vec![cy as f64 - cx as f64];
    }
    out.insert(summary, s);
}

/// A triangle's indices rotated so the smallest comes first: the same triangle, same winding.
fn key(t: &[u32]) -> [u32; 3] {
    let k = (0..3).min_by_key(|&k| t[k]).unwrap_or(0);
    [t[k], t[(k + 1) % 3], t[(k + 2) % 3]]
}

/// A triangle found on one side only: its place (triangle number) in that side's triangle
/// list, and its indices (`key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TriangleAt {
    pub place: u32,
    pub indices: [u32; 3],
}

/// The triangles of one LOD pair found on one side only, each side's in place order.
#[derive(Debug, Default, PartialEq)]
pub struct OneSide {
    pub only_a: Vec<TriangleAt>,
    pub only_b: Vec<TriangleAt>,
}

/// A triangle that differs from the other side's at some place: how many more times A has it
/// there than B, and its places on each side.
#[derive(Default)]
struct Places {
    surplus_in_a: i64,
    in_a: Vec<u32>,
    in_b: Vec<u32>,
}

/// Triangles (three indices, whichever comes first, same winding) that differ at the same
/// place are counted on each side; those left over are on one side only.
pub fn one_side(x: &Lod, y: &Lod) -> OneSide {
    // Only triangles that differ at the same place are counted.
    let mut odd: FxMap<[u32; 3], Places> = FxMap::default();
    let (nx, ny) = (x.indices.len() / 3, y.indices.len() / 3);
    for k in 0..nx.max(ny) {
        let p = x.indices.get(k * 3..k * 3 + 3).map(key);
        let q = y.indices.get(k * 3..k * 3 + 3).map(key);
        if p == q {
            continue;
        }
        if let Some(p) = p {
            let e = odd.entry(p).or_default();
            e.surplus_in_a += 1;
            e.in_a.push(k as u32);
        }
        if let Some(q) = q {
            let e = odd.entry(q).or_default();
            e.surplus_in_a -= 1;
            e.in_b.push(k as u32);
        }
    }
    // The places of the triangles left over on each side: the last ones of their kind.
    let mut out = OneSide::default();
    for (t, places) in &odd {
        let n = places.surplus_in_a;
        let (side, at, n) =
            if n > 0 { (&mut out.only_a, &places.in_a, n) } else { (&mut out.only_b, &places.in_b, -n) };
        side.extend(at[at.len() - n as usize..].iter().map(|&place| TriangleAt { place, indices: *t }));
    }
    out.only_a.sort_unstable();
    out.only_b.sort_unstable();
    out
}

fn triangles(ctx: &Ctx, l: usize, x: &Lod, y: &Lod, out: &mut Vec<Difference>) {
    let odd = one_side(x, y);
    if odd.only_a.is_empty() && odd.only_b.is_empty() {
        return;
    }
    let (nx, ny) = (x.indices.len() / 3, y.indices.len() / 3);
    let side = |n: usize, only: usize| text(format!("{n} triangles, {only} not in the other"));
    let mut s = geometry(format!("mesh.lod[{l}].triangles"), Kind::Triangles, "triangles")
        .sides(Some(side(nx, odd.only_a.len())), Some(side(ny, odd.only_b.len())));
    s.changed = Some((odd.only_a.len() + odd.only_b.len()) as u64);
    out.push(s);
    for (list, in_a) in [(&odd.only_a, true), (&odd.only_b, false)] {
        for &TriangleAt { place: k, indices: t } in list.iter().take(ctx.opts.listed) {
            let v = text(format!("[{}, {}, {}]", t[0], t[1], t[2]));
            let (a, b) = if in_a { (Some(v), None) } else { (None, Some(v)) };
            out.push(
                geometry(
                    format!("mesh.lod[{l}].triangle[{k}]"),
                    if in_a { Kind::OnlyA } else { Kind::OnlyB },
                    "triangle",
                )
                .sides(a, b),
            );
        }
    }
}
