//! Vertex layouts: what the submesh format says each vertex holds, fitted to `VERT`'s
//! vertex size (the stride the engine relies on), as one region element per field.

use super::format as fmt;
use super::submesh::{TYPE_NAMES, USAGE_NAMES};
use super::{Column, Element, Values, VENDOR};
use crate::span::{Confidence, Elem, Region, Text};

/// What a vertex field means for the mesh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sem {
    Position,
    Normal,
    Tangent,
    Color(u8),
    Uv(u8),
    Weights,
    Indices,
    Wind,
    Other,
    /// Bytes the format does not explain.
    Unexplained,
}

/// How a vertex field is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    F32(u8),
    U8(u8),
    Unorm8(u8),
    Color,
    Short2,
    Half4,
    Raw(u32),
}

impl Kind {
    /// The element's size in bytes.
    pub fn size(self) -> u32 {
        match self {
            Kind::F32(n) => 4 * n as u32,
            Kind::U8(n) | Kind::Unorm8(n) => n as u32,
            Kind::Color | Kind::Short2 => 4,
            Kind::Half4 => 8,
            Kind::Raw(n) => n,
        }
    }

    fn ty(self) -> Text {
        // The element kinds the description lists are one to four values: a table of those.
        const F32: [&str; 5] = ["f32[0]", "f32[1]", "f32[2]", "f32[3]", "f32[4]"];
        const U8: [&str; 5] = ["u8[0]", "u8[1]", "u8[2]", "u8[3]", "u8[4]"];
        const UNORM8: [&str; 5] = ["unorm8[0]", "unorm8[1]", "unorm8[2]", "unorm8[3]", "unorm8[4]"];
        let table = |t: &[&'static str; 5], n: u32, kind: &str| match t.get(n as usize) {
            Some(s) => Text::Borrowed(s),
            None => Text::Owned(format!("{kind}[{n}]")),
        };
        match self {
            Kind::F32(n) => table(&F32, n.into(), "f32"),
            Kind::U8(n) => table(&U8, n.into(), "u8"),
            Kind::Raw(n) => table(&U8, n, "u8"),
            Kind::Unorm8(n) => table(&UNORM8, n.into(), "unorm8"),
            Kind::Color => "u8[4] rgba".into(),
            Kind::Short2 => "i16[2]".into(),
            Kind::Half4 => "f16[4]".into(),
        }
    }

    fn format(self, sem: Sem) -> fn(&[u8]) -> String {
        match (self, sem) {
            (Kind::F32(n), Sem::Weights) if n < 4 => fmt::weights_f32,
            (Kind::Unorm8(n), Sem::Weights) | (Kind::U8(n), Sem::Weights) if n < 4 => fmt::weights_u8,
            (Kind::F32(_), _) => fmt::f32s,
            (Kind::U8(_), _) => fmt::u8s,
            (Kind::Unorm8(_), _) => fmt::unorm8,
            (Kind::Color, _) => fmt::rgba,
            (Kind::Short2, _) => fmt::i16s,
            (Kind::Half4, _) => fmt::halfs,
            (Kind::Raw(_), _) => fmt::tail,
        }
    }

    /// Values of this kind per vertex.
    pub fn per(self) -> usize {
        match self {
            Kind::F32(n) | Kind::U8(n) | Kind::Unorm8(n) => n as usize,
            Kind::Color | Kind::Half4 => 4,
            Kind::Short2 => 2,
            Kind::Raw(n) => n as usize,
        }
    }

    /// This field, `offset` bytes into each vertex of `data` (`stride` bytes each), in every
    /// vertex, as the values it is stored as. The field must lie inside the stride.
    pub fn column(self, offset: u32, data: &[u8], stride: usize) -> Column {
        let (o, len) = (offset as usize, self.size() as usize);
        let fields = data.chunks_exact(stride.max(1)).map(|v| v.get(o..o + len).unwrap_or(&[]));
        let values = match self {
            Kind::F32(_) => Values::F32(
                fields.flat_map(|b| b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect(),
            ),
            Kind::Half4 => Values::F16(
                fields.flat_map(|b| b.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]))).collect(),
            ),
            Kind::Short2 => {
                Values::I16(fields.flat_map(|b| b.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]))).collect())
            }
            _ => Values::U8(fields.flatten().copied().collect()),
        };
        Column { offset, per: self.per(), values }
    }

    /// How far a value stored as this kind can lie from the value it was made from, at
    /// magnitude `x`: one f32 step, half an f16 step, one step of an integer or UNORM8.
    pub fn step(self, x: f32) -> f32 {
        match self {
            Kind::F32(_) => (x.abs() * f32::EPSILON).max(f32::MIN_POSITIVE),
            Kind::Half4 => {
                let h = half::f16::from_f32(x.abs());
                let next = half::f16::from_bits(h.to_bits().saturating_add(1));
                (next.to_f32() - h.to_f32()).abs() / 2.0
            }
            Kind::Short2 | Kind::U8(_) => 1.0,
            Kind::Unorm8(_) | Kind::Color => 1.0 / 255.0,
            Kind::Raw(_) => 0.0,
        }
    }

    /// `step` as a person reads it, for a check's tolerance.
    pub fn step_text(self) -> &'static str {
        match self {
            Kind::F32(_) => "1 f32 step at the value's magnitude",
            Kind::Half4 => "half an f16 step at the value's magnitude",
            Kind::Short2 | Kind::U8(_) => "1 (an integer step)",
            Kind::Unorm8(_) | Kind::Color => "1/255 (a UNORM8 step)",
            Kind::Raw(_) => "",
        }
    }

    /// How many values (at most four) the field gives a vertex.
    pub fn value_count(self) -> usize {
        match self {
            Kind::F32(n) | Kind::U8(n) | Kind::Unorm8(n) => n.min(4) as usize,
            Kind::Half4 | Kind::Color => 4,
            Kind::Short2 => 2,
            Kind::Raw(_) => 0,
        }
    }
}

/// One field of every vertex.
#[derive(Debug, Clone, PartialEq)]
pub struct VElem {
    pub name: String,
    pub offset: u32,
    pub kind: Kind,
    pub sem: Sem,
    pub confidence: Confidence,
    pub note: String,
}

/// A vertex layout and where it came from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    pub elems: Vec<VElem>,
    /// Bytes the submesh format explains (before fitting to the stride).
    pub format_size: u32,
}

const O: Confidence = Confidence::Observed;
const I: Confidence = Confidence::Inferred;
const P: Confidence = Confidence::Proven;

pub const TANGENT_TAIL: &str = "observed: the 16 bytes bump-mapped vertices carry beyond their fvf \
(at1_a1.ply, gun2.ply) are a unit vector orthogonal to the normal and a sign of +-1, i.e. tangent \
+ bitangent sign (the vendor description lists tangent float[4] under fvf 0x8000E000, not set in these files)";

impl Layout {
    /// Bytes the fields take: they are laid out back to back, so the last one ends it.
    pub fn size(&self) -> u32 {
        self.elems.last().map(|e| e.offset.saturating_add(e.kind.size())).unwrap_or(0)
    }

    fn push(&mut self, name: &str, kind: Kind, sem: Sem, confidence: Confidence, note: &str) {
        let offset = self.size();
        self.elems.push(VElem { name: name.into(), offset, kind, sem, confidence, note: note.into() });
        self.format_size = self.size();
    }

    pub fn has(&self, sem: Sem) -> bool {
        self.elems.iter().any(|e| e.sem == sem)
    }

    /// The legacy `MESH` fvf (Direct3D FVF bits), in Direct3D order as the samples store it.
    pub fn from_fvf(fvf: u32) -> Layout {
        let mut l = Layout::default();
        let pos = fvf & 0xe;
        let order = "vendor description gives the type; its place in the vertex is observed in the samples";
        match pos {
            0 => {}
            0x4 => l.push("position", Kind::F32(4), Sem::Position, I, "Direct3D XYZRHW: no sample"),
            _ => l.push("position", Kind::F32(3), Sem::Position, P, VENDOR),
        }
        if pos >= 0x6 {
            let betas = ((pos - 4) / 2) as u8;
            let ubyte4 = fvf & 0x1000 != 0;
            let weights = if ubyte4 { betas - 1 } else { betas };
            let seen = pos == 0x8 && ubyte4;
            let (c, note) = if seen {
                (
                    O,
                    "observed in gun2.ply (fvf 0x1118): one f32 weight (the second is 1 minus it), then \
u8[4] bone indices, 8 bytes after the position; the vendor description says blend_weight uint8[2] + \
blend_indices uint8[4] for 0x008",
                )
            } else {
                (
                    I,
                    "Direct3D FVF blend values as gun2.ply stores them (f32 weights, the last value u8[4] \
indices with fvf 0x1000); the vendor description says uint8 weights; no sample shows this count",
                )
            };
            if weights > 0 {
                l.push("blend_weight", Kind::F32(weights), Sem::Weights, c, note);
            }
            if ubyte4 {
                l.push("blend_indices", Kind::U8(4), Sem::Indices, c, note);
            }
        }
        if fvf & 0x10 != 0 {
            if pos >= 0x6 {
                l.push(
                    "normal",
                    Kind::F32(3),
                    Sem::Normal,
                    O,
                    "vendor description: float[3]; after the blend values in gun2.ply",
                );
            } else {
                l.push("normal", Kind::F32(3), Sem::Normal, P, VENDOR);
            }
        }
        if fvf & 0x40 != 0 {
            l.push("diffuse_color", Kind::Color, Sem::Color(0), O, "vendor description: uint8[4]; after the normal in enumerator1.ply; RGBA as the description names colors");
        }
        if fvf & 0x80 != 0 {
            l.push(
                "specular_color",
                Kind::Color,
                Sem::Color(1),
                I,
                "vendor description: uint8[4]; place assumed after the diffuse color (Direct3D order), no sample",
            );
        }
        for k in 0..((fvf >> 8) & 0xf) as u8 {
            let (c, note) = if k == 0 {
                (O, order)
            } else {
                (I, "vendor description: N x float[2]; sets after the first assumed to follow it, no sample")
            };
            l.push(&format!("uv{k}"), Kind::F32(2), Sem::Uv(k), c, note);
        }
        if fvf & 0x8000_e000 == 0x8000_e000 {
            l.push("tangent", Kind::F32(4), Sem::Tangent, I, "vendor description: fvf 0x8000E000 tangent float[4]; placed after the texcoords where bump samples store theirs");
        }
        l
    }

    /// `SBM1` / AS2 `SUBM` vertex elements, in list order. Returns an error message for an
    /// element type the description does not list (the layout stops there).
    pub fn from_elements(elements: &[Element], conf: Confidence, note: &str) -> (Layout, Option<String>) {
        let mut l = Layout::default();
        let mut names = std::collections::HashSet::new();
        for (i, e) in elements.iter().enumerate() {
            // A vertex is at most 65535 bytes (u16 vertex_size): fields past that never fit.
            if l.size() > u16::MAX as u32 {
                return (l, Some(format!("the vertex elements run past 65535 bytes at element {i}")));
            }
            let kind = match e.type_usage & 0xf {
                0 => Kind::F32(1),
                1 => Kind::F32(2),
                2 => Kind::F32(3),
                3 => Kind::F32(4),
                4 => Kind::Short2,
                5 => Kind::U8(4),
                6 => Kind::Color,
                7 => Kind::Half4,
                8 => Kind::Unorm8(4),
                t => {
                    return (
                        l,
                        Some(format!("vertex element {i} has type {t}, not one of the nine the description lists")),
                    )
                }
            };
            let ui = e.usage_index;
            let (sem, base) = match e.type_usage >> 4 {
                0 => (Sem::Position, "position"),
                1 => (Sem::Normal, "normal"),
                2 => (Sem::Color(ui), "color"),
                3 => (Sem::Uv(ui), "uv"),
                4 => (Sem::Weights, "blend_weight"),
                5 => (Sem::Indices, "blend_indices"),
                6 => (Sem::Tangent, "tangent"),
                _ => (Sem::Other, "element"),
            };
            let mut name = match sem {
                Sem::Color(_) | Sem::Uv(_) => format!("{base}{ui}"),
                Sem::Other => format!("element{i}"),
                _ if ui > 0 => format!("{base}{ui}"),
                _ => base.to_string(),
            };
            if !names.insert(name.clone()) {
                name = format!("{name}_{i}");
                names.insert(name.clone());
            }
            let t = TYPE_NAMES.get((e.type_usage & 0xf) as usize).copied().unwrap_or("?");
            let u = USAGE_NAMES.get((e.type_usage >> 4) as usize).copied().unwrap_or("?");
            let mut n = format!("{note}; element {i}: {t} {u}");
            if e.stream != 0 {
                n.push_str(&format!(", stream {} (one VERT: read in list order)", e.stream));
            }
            l.push(&name, kind, sem, conf, &n);
        }
        (l, None)
    }

    /// The GEM3 `vertex_format` bits: types from the description, order assumed to be the
    /// bit order (no PM01 sample).
    pub fn from_gem3(vf: u16) -> Layout {
        let mut l = Layout::default();
        let note = "vendor description gives the type; no PM01 sample, so the place (bit order) is assumed";
        let bits: [(u16, &str, Kind, Sem); 9] = [
            (0x1, "position", Kind::F32(3), Sem::Position),
            (0x2, "normal", Kind::F32(3), Sem::Normal),
            (0x4, "color0", Kind::Color, Sem::Color(0)),
            (0x8, "color1", Kind::Color, Sem::Color(1)),
            (0x10, "uv0", Kind::F32(2), Sem::Uv(0)),
            (0x20, "uv1", Kind::F32(2), Sem::Uv(1)),
            (0x40, "uv2", Kind::F32(2), Sem::Uv(2)),
            (0x80, "uv3", Kind::F32(2), Sem::Uv(3)),
            (0x100, "tangent", Kind::F32(4), Sem::Tangent),
        ];
        for (bit, name, kind, sem) in bits {
            if vf & bit != 0 {
                l.push(name, kind, sem, I, note);
            }
        }
        // The description's table: the skin bits give one to three u8 weights (the last is
        // 1 minus their sum) and no bone indices.
        let weights = ((vf & 0x600) >> 9) as u8;
        if weights > 0 {
            l.push(
                "blend_weight",
                Kind::Unorm8(weights),
                Sem::Weights,
                I,
                "vendor description: uint8 weights, one fewer than the bones (the last is 1 minus their sum), no bone indices; place assumed",
            );
        }
        if vf & 0x800 != 0 {
            l.push("wind", Kind::F32(1), Sem::Wind, I, note);
        }
        l
    }

    /// Fits the layout to the stride: fields past it are dropped (the message says so), and
    /// bytes after it become a tangent (bump-mapped, 16 bytes) or an unexplained tail.
    pub fn fit(&mut self, stride: u32, bump: bool) -> Option<String> {
        let size = self.size();
        let mut problem = None;
        if size > stride {
            self.elems.retain(|e| e.offset + e.kind.size() <= stride);
            problem = Some(format!("the submesh format needs {size} bytes per vertex, vertex_size is {stride}"));
        }
        let mut at = self.size();
        if bump && !self.has(Sem::Tangent) && stride - at >= 16 {
            self.elems.push(VElem {
                name: "tangent".into(),
                offset: at,
                kind: Kind::F32(4),
                sem: Sem::Tangent,
                confidence: O,
                note: TANGENT_TAIL.into(),
            });
            at += 16;
        }
        if stride > at {
            self.elems.push(VElem {
                name: "unexplained".into(),
                offset: at,
                kind: Kind::Raw(stride - at),
                sem: Sem::Unexplained,
                confidence: Confidence::Unknown,
                note: "bytes of the vertex (vertex_size) that the submesh format does not explain".into(),
            });
        }
        problem
    }

    pub fn region(&self, start: u64, stride: u64, count: u64, path: &str) -> Region {
        Region {
            start,
            stride,
            count,
            path: path.into(),
            elems: self
                .elems
                .iter()
                .map(|e| Elem {
                    offset: e.offset as u64,
                    len: e.kind.size() as u64,
                    name: e.name.clone(),
                    ty: e.kind.ty(),
                    confidence: e.confidence,
                    note: e.note.clone().into(),
                    format: e.kind.format(e.sem),
                })
                .collect(),
        }
    }

    /// Every field as a column of values, when the fields tile the vertex (each starts where
    /// the last ended and the last ends at `stride`, as `fit` leaves them); else `None`.
    pub fn columns(&self, data: &[u8], stride: usize) -> Option<Vec<Column>> {
        let mut at = 0u32;
        for e in &self.elems {
            if e.offset != at {
                return None;
            }
            at += e.kind.size();
        }
        (at as usize == stride).then(|| self.elems.iter().map(|e| e.kind.column(e.offset, data, stride)).collect())
    }

    /// Field names in order, for the summary.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.elems.iter().map(|e| format!("{} {}", e.name, e.kind.ty())).collect();
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(l: &Layout) -> Vec<(&str, u32, u32)> {
        l.elems.iter().map(|e| (e.name.as_str(), e.offset, e.kind.size())).collect()
    }

    #[test]
    fn fvf_layouts_follow_direct3d_order() {
        // gun2.ply: XYZB2 + LASTBETA_UBYTE4 + normal + 1 texcoord = 40 bytes, +16 tangent = 56.
        let mut l = Layout::from_fvf(0x1118);
        assert_eq!(
            shape(&l),
            [
                ("position", 0, 12),
                ("blend_weight", 12, 4),
                ("blend_indices", 16, 4),
                ("normal", 20, 12),
                ("uv0", 32, 8)
            ]
        );
        assert!(l.fit(56, true).is_none());
        assert_eq!(shape(&l).last(), Some(&("tangent", 40, 16)));
        // enumerator1.ply: position, normal, diffuse, one texcoord = 36 bytes.
        let l = Layout::from_fvf(0x152);
        assert_eq!(shape(&l)[2], ("diffuse_color", 24, 4));
        assert_eq!(l.size(), 36);
        // 4 bones: three f32 weights before the indices.
        assert_eq!(shape(&Layout::from_fvf(0x100c))[1], ("blend_weight", 12, 12));
    }

    #[test]
    fn fitting_drops_what_does_not_fit_and_marks_the_rest() {
        let mut l = Layout::from_fvf(0x152);
        assert!(l.fit(30, false).is_some(), "36 bytes do not fit in 30");
        assert_eq!(l.size(), 30);
        assert_eq!(l.elems.last().map(|e| e.sem), Some(Sem::Unexplained));
        let mut l = Layout::from_fvf(0x112);
        l.fit(40, false);
        assert_eq!(shape(&l).last(), Some(&("unexplained", 32, 8)));
    }

    #[test]
    fn element_lists_name_each_field_once() {
        let e = |t| Element { type_usage: t, usage_index: 0, stream: 0 };
        let (l, err) = Layout::from_elements(&[e(0x02), e(0x02), e(0x37), e(0x09)], Confidence::Proven, "");
        assert!(err.unwrap().contains("type 9"));
        assert_eq!(shape(&l), [("position", 0, 12), ("position_1", 12, 12), ("uv0", 24, 8)]);
    }
}
