//! Values measured from decoded geometry, to compare with the stored ones: bounds, surface
//! area (+0x14C) and UV texel density (+0x58/+0x5C), as the description defines them.

use serde::Serialize;

/// One section's measured values.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Measured {
    pub bounds: Option<([f32; 3], [f32; 3])>,
    pub area: f64,
    /// UV0 and UV1 density; `None` when the section has no such UV set.
    pub uv_density: [Option<f64>; 2],
}

fn tri_area(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    let x = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt()
}

fn p3(p: &[f32], i: u32) -> Option<[f64; 3]> {
    let i = i as usize * 3;
    Some([*p.get(i)? as f64, *p.get(i + 1)? as f64, *p.get(i + 2)? as f64])
}

fn uv_area(uv: &[f32], t: &[u32]) -> Option<f64> {
    let g = |i: u32| -> Option<(f64, f64)> {
        let i = i as usize * 2;
        Some((*uv.get(i)? as f64, *uv.get(i + 1)? as f64))
    };
    let (a, b, c) = (g(t[0])?, g(t[1])?, g(t[2])?);
    Some(0.5 * ((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)).abs())
}

/// Total area of the triangles `indices` (local) make over `positions` (x, y, z flat).
pub fn area(positions: &[f32], indices: &[u32]) -> f64 {
    indices
        .chunks_exact(3)
        .filter_map(|t| Some(tri_area(p3(positions, t[0])?, p3(positions, t[1])?, p3(positions, t[2])?)))
        .sum()
}

/// The median over triangles with area of sqrt(UV area / area); 1.0 when none has area.
/// An even count takes the mean of the two middle values.
pub fn uv_density(positions: &[f32], uv: &[f32], indices: &[u32]) -> f64 {
    let v: Vec<f64> = indices
        .chunks_exact(3)
        .filter_map(|t| {
            let a = tri_area(p3(positions, t[0])?, p3(positions, t[1])?, p3(positions, t[2])?);
            if a > 0.0 {
                Some(uv_area(uv, t)? / a)
            } else {
                None
            }
        })
        .collect();
    median_sqrt(v)
}

/// The median of sqrt(v) (mean of the two middle values for an even count); 1.0 when empty.
/// The square root is monotone, so it is taken of the middle values only.
fn median_sqrt(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 1.0;
    }
    // Selection, not a sort: linear in the triangle count.
    let n = v.len();
    let (below, mid, _) = v.select_nth_unstable_by(n / 2, |a, b| a.total_cmp(b));
    let mid = mid.sqrt();
    if n % 2 == 1 {
        mid
    } else {
        (below.iter().copied().fold(f64::NEG_INFINITY, f64::max).sqrt() + mid) / 2.0
    }
}

/// `median_sqrt` of f32 values: the same result as widening them first (widening keeps their
/// order and the maximum), with half the memory to select in.
fn median_sqrt_f32(mut v: Vec<f32>) -> f64 {
    if v.is_empty() {
        return 1.0;
    }
    let n = v.len();
    let (below, mid, _) = v.select_nth_unstable_by(n / 2, |a, b| a.total_cmp(b));
    let mid = (*mid as f64).sqrt();
    if n % 2 == 1 {
        mid
    } else {
        ((below.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64).sqrt() + mid) / 2.0
    }
}

/// Bounds, area and both densities in one pass over the triangles. Per triangle the arithmetic
/// is f32 (its rounding is far below the checks' 1 %); the sums are f64.
pub fn measure(positions: &[f32], uvs: [Option<&[f32]>; 2], indices: &[u32]) -> Measured {
    measure_from(positions, uvs, indices, 0)
}

/// `measure` with indices counted from `base`: a section's slice of the LOD's index array
/// (which holds LOD vertex numbers) over the section's own vertices, without a shifted copy.
/// An index below `base` wraps to a large number and, like any out-of-range index, drops its
/// triangle.
///
/// The triangles go in pieces of `PIECE`: one loop gathers corners and takes the squared
/// cross-product length and twice the UV area, the next two take every square root and
/// division of the piece in vector registers, and the last sums and keeps in triangle order.
/// Each value goes through `measure_scalar`'s operations in the same order, so the results
/// have the same bits (the tests compare them). (Eight-triangle blocks with the gathers
/// transposed into lanes measured twice as slow as the plain loop.)
pub fn measure_from(positions: &[f32], uvs: [Option<&[f32]>; 2], indices: &[u32], base: u32) -> Measured {
    let tris = indices.len() / 3;
    let cap = |u: Option<&[f32]>| if u.is_some() { tris } else { 0 };
    // f32 ratios (what the per-triangle arithmetic gives); the median widens the middle ones.
    let mut dens: [Vec<f32>; 2] = [Vec::with_capacity(cap(uvs[0])), Vec::with_capacity(cap(uvs[1]))];
    let mut total = 0.0f64;
    let (mut len2, mut area2) = ([0f32; PIECE], [0f32; PIECE]);
    let mut uv2 = [[0f32; PIECE]; 2];
    // Per triangle: bit 0 its corners are there, bit 1 + k its UV set k's are.
    let mut there = [0u8; PIECE];
    for piece in indices.chunks(3 * PIECE) {
        let m = piece.len() / 3;
        for (j, t) in piece.chunks_exact(3).enumerate() {
            there[j] = 0;
            let (Some(a), Some(b), Some(c)) =
                (get::<3>(positions, t[0], base), get::<3>(positions, t[1], base), get::<3>(positions, t[2], base))
            else {
                continue;
            };
            let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let x = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
            len2[j] = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
            there[j] = 1;
            for k in 0..2 {
                let Some(uv) = uvs[k] else { continue };
                let (Some(ta), Some(tb), Some(tc)) =
                    (get::<2>(uv, t[0], base), get::<2>(uv, t[1], base), get::<2>(uv, t[2], base))
                else {
                    continue;
                };
                uv2[k][j] = ((tb[0] - ta[0]) * (tc[1] - ta[1]) - (tc[0] - ta[0]) * (tb[1] - ta[1])).abs();
                there[j] |= 2 << k;
            }
        }
        // Whole arrays (lanes past m hold an earlier piece's values and are not read).
        for j in 0..PIECE {
            area2[j] = len2[j].sqrt(); // twice the area
        }
        for k in 0..2 {
            if uvs[k].is_some() {
                for j in 0..PIECE {
                    uv2[k][j] /= area2[j];
                }
            }
        }
        for j in 0..m {
            if there[j] & 1 == 0 {
                continue;
            }
            total += area2[j] as f64 * 0.5;
            if area2[j] > 0.0 {
                for k in 0..2 {
                    if there[j] & (2 << k) != 0 {
                        dens[k].push(uv2[k][j]);
                    }
                }
            }
        }
    }
    let [d0, d1] = dens;
    Measured {
        bounds: crate::mesh::bounds_of(positions),
        area: total,
        uv_density: [uvs[0].map(|_| median_sqrt_f32(d0)), uvs[1].map(|_| median_sqrt_f32(d1))],
    }
}

/// Triangles per piece of `measure_from`: its arrays stay in the first-level cache.
const PIECE: usize = 256;

/// The straightforward one-triangle-at-a-time `measure_from`, for the tests to compare with.
#[cfg(test)]
fn measure_scalar(positions: &[f32], uvs: [Option<&[f32]>; 2], indices: &[u32], base: u32) -> Measured {
    let mut dens: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
    let mut total = 0.0f64;
    for t in indices.chunks_exact(3) {
        let (Some(a), Some(b), Some(c)) =
            (get::<3>(positions, t[0], base), get::<3>(positions, t[1], base), get::<3>(positions, t[2], base))
        else {
            continue;
        };
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let x = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        let area2 = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt(); // twice the area
        total += area2 as f64 * 0.5;
        if area2 > 0.0 {
            for k in 0..2 {
                let Some(uv) = uvs[k] else { continue };
                let (Some(ta), Some(tb), Some(tc)) =
                    (get::<2>(uv, t[0], base), get::<2>(uv, t[1], base), get::<2>(uv, t[2], base))
                else {
                    continue;
                };
                let uv2 = ((tb[0] - ta[0]) * (tc[1] - ta[1]) - (tc[0] - ta[0]) * (tb[1] - ta[1])).abs();
                dens[k].push(uv2 / area2);
            }
        }
    }
    let [d0, d1] = dens;
    Measured {
        bounds: crate::mesh::bounds_of(positions),
        area: total,
        uv_density: [uvs[0].map(|_| median_sqrt_f32(d0)), uvs[1].map(|_| median_sqrt_f32(d1))],
    }
}

/// Vertex `i` (counted from `base`) of a flat array of `N`-component vectors, if there.
#[inline]
fn get<const N: usize>(a: &[f32], i: u32, base: u32) -> Option<[f32; N]> {
    let i = (i.wrapping_sub(base) as usize).checked_mul(N)?; // no wrap on 32-bit targets
    a.get(i..i.checked_add(N)?)?.try_into().ok()
}

/// stored / measured, with 0/0 as 1.
pub fn ratio(stored: f64, measured: f64) -> f64 {
    if measured == 0.0 {
        if stored == 0.0 {
            1.0
        } else {
            f64::INFINITY
        }
    } else {
        stored / measured
    }
}

/// Tolerance of the area and density checks: stored/measured within 1 % (the description's
/// stock sections sit within 0.996-1.003 for area and 0.996-1.001 for density, quartiles).
pub const RATIO_TOLERANCE: f64 = 0.01;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_by_three_rectangle() {
        // Two triangles covering a 2 x 3 rectangle: area 6; UVs cover the unit square, so
        // every triangle has UV area 1/2 over area 3: density sqrt(1/6).
        let p = [0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0, 3.0, 0.0, 0.0, 3.0, 0.0];
        let uv = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
        let i = [0, 1, 2, 0, 2, 3];
        assert!((area(&p, &i) - 6.0).abs() < 1e-12);
        assert!((uv_density(&p, &uv, &i) - (1.0f64 / 6.0).sqrt()).abs() < 1e-12);
        // Degenerate triangles have no area: density 1.0.
        assert_eq!(uv_density(&p, &uv, &[0, 0, 1]), 1.0);
        // Even counts take the mean of the two middle values: densities 1 and 2 -> 1.5.
        let p2 = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        let uv2 = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 2.0];
        // Second triangle reuses positions 0..2 but indexes UVs 3..5: give it its own vertices.
        let p3 = [&p2[..], &p2[..]].concat();
        assert_eq!(uv_density(&p3, &uv2, &[0, 1, 2, 3, 4, 5]), 1.5);
        // The one-pass measure agrees with the separate functions.
        let m = measure(&p, [Some(&uv), None], &i);
        assert!((m.area - area(&p, &i)).abs() < 1e-5);
        assert!((m.uv_density[0].unwrap() - uv_density(&p, &uv, &i)).abs() < 1e-6);
        assert_eq!(m.uv_density[1], None);
        assert_eq!(m.bounds, Some(([0.0, 0.0, 0.0], [2.0, 3.0, 0.0])));
    }

    /// A deterministic stream of numbers in [0, 1).
    fn rng(seed: &mut u64) -> f32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 40) as f32 / (1u64 << 24) as f32
    }

    #[test]
    fn the_f32_median_is_the_widened_median() {
        let mut s = 3u64;
        for len in [1usize, 2, 3, 4, 7, 8, 100, 101, 1000, 1001] {
            // Coarse values so that ties (and equal middle values) occur.
            let v: Vec<f32> = (0..len).map(|_| (rng(&mut s) * 50.0).round() / 7.0).collect();
            let wide: Vec<f64> = v.iter().map(|&x| x as f64).collect();
            assert_eq!(median_sqrt_f32(v).to_bits(), median_sqrt(wide).to_bits(), "{len}");
        }
        assert_eq!(median_sqrt_f32(Vec::new()), 1.0);
    }

    #[test]
    fn measuring_from_a_base_is_measuring_the_shifted_copy() {
        // Random triangles (some degenerate, some indices out of range) over random
        // positions and UVs: the LOD-numbered indices with a base give exactly what the
        // section-numbered copy gives.
        let mut s = 5u64;
        for &(nv, nt, base) in &[
            (3usize, 1usize, 0u32),
            (3, 0, 0),
            (5, 7, 1),
            (50, 200, 7),
            (400, 1500, 123_456),
            (400, 1503, 9),
            (10, 30, u32::MAX - 20),
        ] {
            let p: Vec<f32> = (0..nv * 3).map(|_| rng(&mut s) * 4.0 - 2.0).collect();
            let uv: Vec<f32> = (0..nv * 2).map(|_| rng(&mut s)).collect();
            let local: Vec<u32> = (0..nt * 3)
                .map(|_| {
                    let r = rng(&mut s);
                    if r < 0.02 {
                        nv as u32 + 3
                    } else {
                        (r * nv as f32) as u32 % nv as u32
                    }
                })
                .collect();
            let global: Vec<u32> = local.iter().map(|&i| i.wrapping_add(base)).collect();
            for uvs in [[Some(&uv[..]), None], [Some(&uv[..]), Some(&uv[..])], [None, None]] {
                assert_eq!(measure_from(&p, uvs, &global, base), measure(&p, uvs, &local));
                // The pieces against the one-triangle-at-a-time loop, bit for bit.
                let (x, y) = (measure_from(&p, uvs, &global, base), measure_scalar(&p, uvs, &global, base));
                assert_eq!(x.area.to_bits(), y.area.to_bits());
                assert_eq!(x.uv_density.map(|d| d.map(f64::to_bits)), y.uv_density.map(|d| d.map(f64::to_bits)));
                assert_eq!(x, y);
            }
            // And the one-pass densities agree with the f64 reference within f32 rounding.
            let m = measure(&p, [Some(&uv), None], &local);
            let r = uv_density(&p, &uv, &local);
            assert!((m.uv_density[0].unwrap() - r).abs() <= 1e-4 * r.max(1.0), "{m:?} {r}");
        }
    }
}
