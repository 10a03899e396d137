//! Pairs of files made by the builders with known changes: the diff reports exactly those
//! changes, a file compared with itself gives none, and A vs B mirrors B vs A.

use meshscope::diff::{compare, Comparison, Difference, Kind, Options};
use meshscope::formats::frostbite::builder::{self, cube, BuildLod, BuildMesh};
use meshscope::formats::frostbite::guid;
use meshscope::formats::gem_ply::builder::{Builder, Vertex};
use meshscope::formats::gem_ply::vertex::Layout;
use meshscope::formats::gem_ply::{Chunk, Magic, MeshChunk};
use meshscope::{open, Document};

/// Compares both ways: checks the mirror and that each file equals itself.
fn diff(a: &Document, b: &Document) -> Comparison {
    let opts = Options::default();
    let ab = compare(a, b, &opts);
    let ba = compare(b, a, &opts);
    assert_eq!(ba.differences, ab.mirrored().differences, "B vs A mirrors A vs B");
    assert!(compare(a, a, &opts).same(), "A vs A: {:?}", compare(a, a, &opts).differences);
    assert!(compare(b, b, &opts).same(), "B vs B");
    ab
}

fn kinds_and_paths(c: &Comparison) -> Vec<(Kind, String)> {
    c.differences.iter().map(|d| (d.kind, d.path.clone())).collect()
}

fn find<'a>(c: &'a Comparison, path: &str) -> &'a Difference {
    c.differences.iter().find(|d| d.path == path).unwrap_or_else(|| panic!("no difference at {path}"))
}

fn f32s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64).collect()
}

/// Eight vertices of a box, two triangles per face on four faces.
fn verts() -> Vec<Vertex> {
    (0..8)
        .map(|k| Vertex {
            position: [(k & 1) as f32, ((k >> 1) & 1) as f32 * 2.0, ((k >> 2) & 1) as f32 * 3.0],
            uvs: [[k as f32 / 8.0, 0.5], [0.0; 2], [0.0; 2], [0.0; 2]],
            ..Default::default()
        })
        .collect()
}

const INDICES: [u16; 24] = [0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6];

/// What a `.ply` pair varies.
struct Ply {
    verts: Vec<Vertex>,
    material: &'static str,
    flags: u32,
    mror: bool,
}

impl Default for Ply {
    fn default() -> Self {
        Ply { verts: verts(), material: "crate.mtl", flags: 0x404, mror: false }
    }
}

/// position | normal | one texcoord set, a material; the BNDS is always the unmoved box's, so
/// moving a vertex changes only the vertex.
fn ply(p: &Ply) -> Document {
    let fvf = 0x112;
    let mut layout = Layout::from_fvf(fvf);
    let size = layout.size();
    layout.fit(size, false);
    let mesh = MeshChunk {
        fvf,
        face_start: 0,
        face_count: 8,
        flags: p.flags,
        material: Some(p.material.into()),
        ..Default::default()
    };
    let mut b = Builder::new(Magic::Eply)
        .bnds(&verts())
        .chunk(Chunk::Mesh(mesh))
        .vert(&layout, size as u16, 0x7, &p.verts)
        .indx(&INDICES);
    if p.mror {
        b = b.chunk(Chunk::Mror);
    }
    let doc = open("x.ply", b.build().expect("builds"));
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    doc
}

#[test]
fn a_moved_vertex_is_that_vertex_and_nothing_else() {
    let a = ply(&Ply::default());
    let mut moved = verts();
    moved[5].position[1] += 0.25;
    let b = ply(&Ply { verts: moved.clone(), ..Ply::default() });
    let c = diff(&a, &b);
    let expected = [
        (Kind::Elements, "VERT.vertices"),
        (Kind::Changed, "VERT.vertices[5].position"),
        (Kind::Moved, "mesh.lod[0].vertex[5]"),
        (Kind::Moved, "mesh.lod[0].vertices"),
    ];
    assert_eq!(kinds_and_paths(&c), expected.map(|(k, p)| (k, p.to_string())));
    assert_eq!(find(&c, "VERT.vertices").changed, Some(1));
    let field = find(&c, "VERT.vertices[5].position");
    let (sa, sb) = (field.a.as_ref().unwrap(), field.b.as_ref().unwrap());
    assert_eq!(sa.offset, sb.offset, "nothing before the vertex moved");
    let at = sa.offset.unwrap() as usize;
    let (pa, pb) = (f32s(&a.bytes[at..at + 12]), f32s(&b.bytes[at..at + 12]));
    let want: Vec<f64> = pa.iter().zip(&pb).map(|(x, y)| y - x).collect();
    assert_eq!(field.delta, want);
    assert_eq!(want, [0.0, moved[5].position[1] as f64 - verts()[5].position[1] as f64, 0.0]);
    assert_eq!(find(&c, "mesh.lod[0].vertex[5]").delta, want);
    assert_eq!(find(&c, "mesh.lod[0].vertices").changed, Some(1));
}

#[test]
fn an_extra_chunk_is_one_record_on_one_side() {
    let (a, b) = (ply(&Ply::default()), ply(&Ply { mror: true, ..Ply::default() }));
    let c = diff(&a, &b);
    assert_eq!(kinds_and_paths(&c), [(Kind::OnlyB, "MROR".to_string())]);
    let s = c.differences[0].b.as_ref().unwrap();
    assert_eq!((s.offset, s.len), (Some(a.bytes.len() as u64), 4), "the chunk is B's last four bytes");
    assert_eq!(&b.bytes[a.bytes.len()..], b"MROR");
}

#[test]
fn a_changed_flag_is_that_flag() {
    let (a, b) = (ply(&Ply::default()), ply(&Ply { flags: 0x405, ..Ply::default() }));
    let c = diff(&a, &b);
    assert_eq!(kinds_and_paths(&c), [(Kind::Changed, "MESH[0].mesh_flags".to_string())]);
    let d = &c.differences[0];
    assert!(d.delta.is_empty(), "flags have no delta");
    let at = d.a.as_ref().unwrap().offset.unwrap() as usize;
    assert_eq!(u32::from_le_bytes(a.bytes[at..at + 4].try_into().unwrap()), 0x404);
    assert_eq!(u32::from_le_bytes(b.bytes[at..at + 4].try_into().unwrap()), 0x405);
}

#[test]
fn a_renamed_material_moves_everything_after_it_and_only_the_name_differs() {
    let (a, b) = (ply(&Ply::default()), ply(&Ply { material: "crate_painted_blue.mtl", ..Ply::default() }));
    let grown = ("crate_painted_blue.mtl".len() - "crate.mtl".len()) as u64;
    assert_eq!(b.bytes.len() as u64, a.bytes.len() as u64 + grown);
    let c = diff(&a, &b);
    assert_eq!(
        kinds_and_paths(&c),
        [
            (Kind::Changed, "MESH[0].material_name.length".to_string()),
            (Kind::Changed, "MESH[0].material_name.text".into())
        ]
    );
    assert_eq!(c.differences[0].delta, [grown as f64]);
    assert_eq!(c.differences[1].b.as_ref().unwrap().value, "crate_painted_blue.mtl");
    // Compared by offset, every byte after the name would differ.
    let at = c.differences[1].a.as_ref().unwrap().offset.unwrap() as usize;
    assert_ne!(a.bytes[at + 9..], b.bytes[at + 9..a.bytes.len()]);
}

fn meshset(sections: usize) -> BuildMesh {
    let secs = (0..sections).map(|k| cube(&format!("Props/M{k}"), 1.0, [k as f32 * 2.0, 0.0, 0.0])).collect();
    BuildMesh {
        name: "skate/props/x".into(),
        mesh_type: 0,
        bone_count: 0,
        lods: vec![BuildLod { sections: secs, index_32: false, inline: false }],
    }
}

/// The resource and its chunk, attached by the GUID name.
fn open_meshset(b: &builder::Built) -> (Document, Document) {
    let mut doc = open("x.res", b.resource.clone());
    let (g, bytes) = &b.chunks[0];
    let chunk = doc.attach(&format!("{}.chunk", guid::hex(g)), bytes.clone()).expect("attaches");
    assert!(doc.errors.is_empty() && chunk.errors.is_empty());
    (doc, chunk)
}

/// A pointer field's value, `0x470 (-> 0x480)`.
fn pointer(v: &str) -> u64 {
    u64::from_str_radix(v.trim_start_matches("0x").split(' ').next().unwrap(), 16).unwrap()
}

#[test]
fn an_extra_section_is_one_record_and_what_the_builder_derives_from_it() {
    let (ba, bb) = (builder::build(&meshset(2)), builder::build(&meshset(3)));
    let ((a, ca), (b, cb)) = (open_meshset(&ba), open_meshset(&bb));
    let c = diff(&a, &b);
    let section_bytes = 384; // header.section_bytes: one section record
    let new_string = "Props/M2".len() as u64 + 1; // the new material name and its NUL
    let last = a.spans.fixed().iter().filter(|s| s.path.starts_with("pool.strings[")).max_by_key(|s| s.end());
    let strings_end = last.expect("pool strings").end();
    for d in &c.differences {
        let (va, vb) = (d.a.as_ref().map(|s| s.value.as_str()), d.b.as_ref().map(|s| s.value.as_str()));
        match (d.kind, d.path.as_str()) {
            (Kind::OnlyB, "lod[0].section[2]") => {
                assert_eq!(d.b.as_ref().unwrap().len, section_bytes);
            }
            (Kind::Changed, p) if p.ends_with("].pointer") => {
                // The section lists follow the strings at the next 16-byte boundary, one u8 per
                // section each, in list order, empty ones pointing where they would start: a
                // cube is in lists 0, 3 and 4, so each of those before this one holds one more
                // section.
                let moved = pointer(vb.unwrap()) - pointer(va.unwrap());
                let lists = |end: u64| end.next_multiple_of(16);
                let k: usize = p["lod[0].section_list[".len()..].split(']').next().unwrap().parse().unwrap();
                let before = [0, 3, 4].iter().filter(|&&x| x < k).count() as u64;
                assert_eq!(moved, lists(strings_end + section_bytes + new_string) - lists(strings_end) + before, "{p}");
            }
            (Kind::Changed, p) if p.ends_with("_pointer") => {
                // Every name pointer moved by one section record; past the new material name,
                // by its length too.
                let moved = pointer(vb.unwrap()) - pointer(va.unwrap());
                assert!(moved == section_bytes || moved == section_bytes + new_string, "{p}: moved {moved}");
            }
            (Kind::Changed, p) | (Kind::OnlyB, p) if p.starts_with("relocation[") => {
                // From the new entry (after the two sections' entries and LOD 0's section
                // array pointer) to the end, each entry holds what the one before it held.
                let k: usize = p["relocation[".len()..p.len() - 1].parse().unwrap();
                assert!((3..3 + 11 + 1).contains(&k), "{p}");
                assert_eq!(d.kind == Kind::OnlyB, k == 14, "{p}");
            }
            (Kind::Changed, "lod[0].section_count") => assert_eq!((va, vb), (Some("2"), Some("3"))),
            (Kind::Changed, p) if p.starts_with("lod[0].section_list[") && p.ends_with(".count") => {
                assert_eq!(d.delta, [1.0], "{p}")
            }
            (Kind::Changed, p) if p.starts_with("pool.section_lists.lod[0].list[") => {
                assert_eq!((va, vb), (Some("[0, 1]"), Some("[0, 1, 2]")), "{p}")
            }
            // 24 more vertices of 20 bytes, 36 more u16 indices.
            (Kind::Changed, "lod[0].vertex_buffer_bytes") => assert_eq!(d.delta, [24.0 * 20.0]),
            (Kind::Changed, "lod[0].index_buffer_bytes") => assert_eq!(d.delta, [36.0 * 2.0]),
            (Kind::Changed, "header.bounds_max") => assert_eq!(d.delta, [2.0, 0.0, 0.0, 0.0]),
            // The string pool gains "Props/M2" at index 2: the names after it shift by one.
            (Kind::Changed, "pool.strings[2]") => assert_eq!(vb, Some("Props/M2")),
            (Kind::Changed, "pool.strings[3]") => assert_eq!(va, Some("skate/props/x")),
            (Kind::OnlyB, "pool.strings[4]") => assert_eq!(vb, Some("skate/props/x")),
            // One more entry, the new material pointer, in the game's order after the other
            // sections' and before LOD 0's five list and three name pointers and the header's
            // LOD and two name pointers: those eleven entries now sit one place later.
            (Kind::Elements, "relocation") => {
                assert_eq!((d.delta.as_slice(), d.changed), (&[1.0][..], Some(5 + 3 + 1 + 2)))
            }
            (Kind::Moved, "mesh.lod[0].vertices") => {
                assert_eq!((d.delta.as_slice(), d.changed), (&[24.0][..], Some(0)))
            }
            (Kind::Triangles, "mesh.lod[0].triangles") => assert_eq!(d.changed, Some(12)),
            (Kind::OnlyB, p) if p.starts_with("mesh.lod[0].triangle[") => {
                let k: u32 = p["mesh.lod[0].triangle[".len()..p.len() - 1].parse().unwrap();
                assert!((24..34).contains(&k), "{p}: the listed new triangles are the first ten");
            }
            _ => panic!("unexpected difference {d:?}"),
        }
    }
    let pointers = c.differences.iter().filter(|d| d.path.contains("pointer")).count();
    assert_eq!(pointers, 12, "header 2, LOD 3, sections 2, section lists 5 (empty ones point where they would start)");
    // The chunk: the new section's vertices and indices follow the others'.
    let cc = diff(&ca, &cb);
    assert_eq!(kinds_and_paths(&cc), [(Kind::OnlyB, "lod[0].section[2]".to_string())]);
}

#[test]
fn a_changed_unexplained_byte_is_found_at_its_record_offset() {
    let built = builder::build(&meshset(2));
    let (a, _) = open_meshset(&built);
    let header = a.tree().iter().find(|n| n.path == "header").expect("a header record");
    let at = (header.start..header.end).find(|&x| a.span_at(x).is_none()).expect("an uncovered header byte");
    let mut bytes = a.bytes.clone();
    bytes[at as usize] ^= 0x5a;
    let mut b = open("x.res", bytes);
    let (g, chunk) = &built.chunks[0];
    b.attach(&format!("{}.chunk", guid::hex(g)), chunk.clone()).expect("attaches");
    let c = diff(&a, &b);
    assert_eq!(kinds_and_paths(&c), [(Kind::Unexplained, format!("header+0x{:x}", at - header.start))]);
    let d = &c.differences[0];
    let (sa, sb) = (d.a.as_ref().unwrap(), d.b.as_ref().unwrap());
    assert_eq!((sa.offset, sa.len), (Some(at), 1));
    assert_eq!(sa.value, format!("{:02x}", a.bytes[at as usize]));
    assert_eq!(sb.value, format!("{:02x}", a.bytes[at as usize] ^ 0x5a));
    assert_eq!(d.confidence, None);
}

#[test]
fn vertex_arrays_list_the_first_changed_elements_and_count_all() {
    let mut moved = verts();
    for v in moved.iter_mut() {
        v.uvs[0][1] = 0.75;
    }
    let (a, b) = (ply(&Ply::default()), ply(&Ply { verts: moved, ..Ply::default() }));
    let c = compare(&a, &b, &Options { listed: 3, ..Options::default() });
    assert_eq!(find(&c, "VERT.vertices").changed, Some(8));
    let listed: Vec<&str> = c.differences.iter().filter(|d| d.kind == Kind::Changed).map(|d| d.path.as_str()).collect();
    assert_eq!(listed, ["VERT.vertices[0].uv0", "VERT.vertices[1].uv0", "VERT.vertices[2].uv0"]);
    assert_eq!(c.differences.len(), 4, "no geometry moved: {:?}", c.differences);
}

#[test]
fn the_same_structure_faces_itself_across_a_longer_name() {
    use meshscope::diff::align::align;
    let (a, b) = (ply(&Ply::default()), ply(&Ply { material: "crate_painted_blue.mtl", ..Ply::default() }));
    let grown = ("crate_painted_blue.mtl".len() - "crate.mtl".len()) as u64;
    let anchors = align(&a, &b);
    let vert = |bytes: &[u8]| bytes.windows(4).position(|w| w == b"VERT").unwrap() as u64;
    let (va, vb) = (vert(&a.bytes), vert(&b.bytes));
    assert_eq!(vb, va + grown);
    // The vertex array: element 3's byte 5 faces element 3's byte 5.
    let at = va + 12 + 3 * 32 + 5;
    let holder = anchors.iter().filter(|x| x.a <= at && at < x.a + x.len).max_by_key(|x| x.a).unwrap();
    assert_eq!((holder.stride_a, holder.stride_b), (32, 32));
    assert_eq!(holder.facing(at), at + grown);
    // Before the name nothing moved.
    let magic = anchors.iter().find(|x| x.a == 0).unwrap();
    assert_eq!((magic.b, magic.facing(3)), (0, 3));
}

#[test]
fn the_command_line_finds_and_compares_the_chunks_beside_meshsets() {
    let tmp = tempfile::Builder::new().prefix("meshscope-diff-").tempdir().unwrap();
    let dir = tmp.path();
    let mut paths = Vec::new();
    for (side, sections) in [("a", 2), ("b", 3)] {
        let built = builder::build(&meshset(sections));
        let d = dir.join(side);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("x.res"), &built.resource).unwrap();
        let (g, chunk) = &built.chunks[0];
        std::fs::write(d.join(format!("{}.chunk", guid::hex(g))), chunk).unwrap();
        paths.push(d.join("x.res").to_string_lossy().into_owned());
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_meshscope"))
        .args(["diff", "--json", &paths[0], &paths[1]])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let in_chunk: Vec<_> = lines.iter().filter(|l| l["file"] == "chunk[0]").collect();
    assert_eq!(in_chunk.len(), 1, "{in_chunk:?}");
    assert_eq!(
        (in_chunk[0]["kind"].as_str(), in_chunk[0]["path"].as_str()),
        (Some("only_b"), Some("lod[0].section[2]"))
    );
    // The resources' differences are the library's, the geometry included (the chunks attached).
    let (ba, bb) = (builder::build(&meshset(2)), builder::build(&meshset(3)));
    let ((a, _), (b, _)) = (open_meshset(&ba), open_meshset(&bb));
    let c = compare(&a, &b, &Options::default());
    let resource: Vec<_> =
        lines.iter().filter(|l| l.get("file").is_none()).map(|l| l["path"].as_str().unwrap()).collect();
    assert_eq!(resource, c.differences.iter().map(|d| d.path.as_str()).collect::<Vec<_>>());
    assert!(resource.contains(&"mesh.lod[0].triangles"));
}

#[test]
fn the_3d_view_gets_every_vertex_distance_and_every_one_side_triangle() {
    use meshscope::diff::geometry::{distances, one_side, TriangleAt};
    let a = ply(&Ply::default());
    let mut moved = verts();
    moved[5].position[1] += 0.25;
    moved[2].position[0] = f32::NAN;
    let b = ply(&Ply { verts: moved.clone(), ..Ply::default() });
    let (la, lb) = (&a.mesh.lods[0], &b.mesh.lods[0]);
    let d = distances(la, lb);
    let mut want = vec![0f32; 8];
    want[5] = (moved[5].position[1] as f64 - verts()[5].position[1] as f64) as f32;
    want[2] = f32::INFINITY;
    assert_eq!(d, want, "matched by index; a NaN on one side only has moved infinitely far");
    assert_eq!(distances(la, la), vec![0f32; 8]);
    // Triangle 3 of B turned and triangle 5 replaced: each side has those two alone, at their places.
    let mut lb2 = la.clone();
    lb2.indices[9..12].copy_from_slice(&[4, 5, 7]);
    lb2.indices[15..18].copy_from_slice(&[1, 2, 3]);
    let odd = one_side(la, &lb2);
    let tri = |k: usize, l: &meshscope::mesh::Lod| {
        let t = &l.indices[k * 3..k * 3 + 3];
        let r = (0..3).min_by_key(|&i| t[i]).unwrap();
        [t[r], t[(r + 1) % 3], t[(r + 2) % 3]]
    };
    let at = |place: u32, l: &meshscope::mesh::Lod| TriangleAt { place, indices: tri(place as usize, l) };
    assert_eq!(odd.only_a, vec![at(3, la), at(5, la)]);
    assert_eq!(odd.only_b, vec![at(3, &lb2), at(5, &lb2)]);
    assert_eq!(one_side(la, la), Default::default());
}
