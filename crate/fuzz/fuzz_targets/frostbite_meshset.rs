//! MeshSets and chunks: raw bytes decoded as a MeshSet, or a built MeshSet and its chunk with
//! bytes patched; every LOD gets the chunk by hand, a .resmeta is attached, and the document
//! is summarised, windowed, written back and censused. Nothing may panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use meshscope::census::{Census, CensusFile};
use meshscope::document::Document;
use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh, Built};
use meshscope::formats::frostbite::decode_meshset;
use meshscope::formats::{decode_first, Format};
use std::sync::OnceLock;

fn base() -> &'static [Built; 2] {
    static B: OnceLock<[Built; 2]> = OnceLock::new();
    B.get_or_init(|| {
        let mut c = cube("F/A", 1.0, [0.0; 3]);
        c.joints = vec![[0, 1, 0, 0]; c.positions.len()];
        c.weights = vec![[1.0, 0.0, 0.0, 0.0]; c.positions.len()];
        c.bones = vec![0, 1];
        let lods = |inline| {
            vec![
                BuildLod { sections: vec![c.clone(), grid("F/B", 1, 1.0)], index_32: false, inline },
                BuildLod { sections: vec![grid("F/C", 1, 1.0)], index_32: true, inline: false },
            ]
        };
        [
            build(&BuildMesh { name: "fuzz/rigid".into(), mesh_type: 0, bone_count: 0, lods: lods(false) }),
            build(&BuildMesh { name: "fuzz/skinned".into(), mesh_type: 1, bone_count: 2, lods: lods(true) }),
        ]
    })
}

fn exercise(res: Vec<u8>, chunk: &[u8], meta: &[u8]) {
    // The census's decode leaves out the checks and lays the declarations out, and nothing else.
    let (full, lean) =
        (decode_meshset("f.res", &res), meshscope::formats::decode_fields(Format::FrostbiteMeshSet, "f.res", &res));
    assert!(lean.errors == full.errors);
    assert!(meshscope::laid::expand_all(lean.fields.spans.clone(), &res) == full.fields.spans);
    // Twice into one census: the second file meets the kinds and entries of the first. Its
    // walk of the laid-out declarations counts what the walk of their fields does.
    let (mut census, mut laid) = (Census::new(), Census::new());
    for _ in 0..2 {
        census.add(&CensusFile::from_decode("f.res", Format::FrostbiteMeshSet, res.clone(), decode_meshset("f.res", &res)));
        let lean = meshscope::formats::decode_fields(Format::FrostbiteMeshSet, "f.res", &res);
        laid.add(&CensusFile::from_decode("f.res", Format::FrostbiteMeshSet, res.clone(), lean));
    }
    let report = |c: &Census| format!("{:?}", c.report(50));
    assert!(report(&census) == report(&laid));
    // The checks `open` leaves for later are, made, the whole decode's.
    let first = || decode_first(Format::FrostbiteMeshSet, "f.res", &res).expect("a MeshSet's checks wait");
    let waiting = Document::from_first("f.res", Format::FrostbiteMeshSet, res.clone(), first());
    assert!(waiting.summary_first().checks_pending);
    // Its records laid out, it answers as the whole decode's document does.
    let whole = Document::from_decode("f.res", Format::FrostbiteMeshSet, res.clone(), decode_meshset("f.res", &res));
    assert!(waiting.tree_json_top(2) == whole.tree_json_top(2));
    assert!(waiting.coverage() == whole.coverage());
    let end = res.len() as u64;
    assert!(waiting.span_bounds(0, end) == whole.span_bounds(0, end));
    assert!(waiting.spans_in(end / 3, end / 2) == whole.spans_in(end / 3, end / 2));
    assert!(waiting.spans.fixed() == whole.spans.fixed());
    assert_eq!(waiting.checks(), &full.checks[..]);
    // Attached to with its checks waiting, as `open` makes it, or made at once (odd lengths).
    let mut doc = if res.len() % 2 == 0 {
        Document::from_first("f.res", Format::FrostbiteMeshSet, res.clone(), first())
    } else {
        Document::from_decode("f.res", Format::FrostbiteMeshSet, res, full)
    };
    for li in 0..doc.mesh.lods.len() {
        if let Ok(c) = doc.attach_to_lod(li, "c.chunk", chunk.to_vec()) {
            let _ = c.summary();
            let _ = c.spans_in(0, 4096);
        }
    }
    let _ = doc.attach("f.res.resmeta", meta.to_vec());
    let _ = doc.summary();
    let _ = doc.spans_in(0, 4096);
    let _ = doc.rewrite();
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode & 1 == 0 {
        // Raw: the resource, then the chunk after a split point.
        let split = rest.get(..2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]) as usize);
        let rest = rest.get(2..).unwrap_or(&[]);
        let (r, c) = rest.split_at(split.min(rest.len()));
        exercise(r.to_vec(), c, &c[..c.len().min(16)]);
    } else {
        // Patched: (u16 offset, byte) edits, on the resource or (high bit) the chunk.
        let b = &base()[(mode as usize >> 1) & 1];
        let mut res = b.resource.clone();
        let mut chunk = b.chunks[0].1.clone();
        let mut len_cut = None;
        for e in rest.chunks_exact(3) {
            let off = u16::from_le_bytes([e[0], e[1]]) as usize;
            if off == 0xffff {
                len_cut = Some(e[2] as usize * 32);
                continue;
            }
            if off & 0x8000 != 0 {
                let o = off & 0x7fff;
                let n = chunk.len().max(1);
                if let Some(x) = chunk.get_mut(o % n) {
                    *x ^= e[2];
                }
            } else if let Some(x) = {
                let n = res.len().max(1);
                res.get_mut(off % n)
            } {
                *x ^= e[2];
            }
        }
        if let Some(n) = len_cut {
            chunk.truncate(n);
        }
        exercise(res, &chunk, &b.resmeta);
    }
});
