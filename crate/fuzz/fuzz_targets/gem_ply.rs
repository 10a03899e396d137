//! The GEM `.ply` decoder on any bytes after a valid magic: decoding, the summary, a window
//! of spans and the writer never panic, a file whose chunk loop reaches its end writes back
//! from its decoded values to the same bytes, and decoding structure first then completing gives the same document.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the magic, so every input reaches the chunk loop.
    let Some((&m, rest)) = data.split_first() else {
        return;
    };
    let magic: &[u8; 4] = match m % 3 {
        0 => b"EPLY",
        1 => b"BPLY",
        _ => b"PM01",
    };
    let mut bytes = magic.to_vec();
    bytes.extend_from_slice(rest);
    let doc = meshscope::open("fuzz.ply", bytes);
    // Structure first (what the page opens a big file with) has the same spans and tree at
    // once and, completed, the same mesh (compared as text: a NaN is not equal to itself).
    let mut quick = meshscope::open_structure("fuzz.ply", doc.bytes.clone());
    assert!(quick.spans.fixed() == doc.spans.fixed() && quick.tree() == doc.tree());
    quick.complete();
    assert!(format!("{:?}", quick.mesh) == format!("{:?}", doc.mesh));
    let s = doc.summary();
    let _ = doc.spans_in(0, s.size.min(4096));
    // The cheap pass says whether the chunk loop reached the end; if it did, the writer,
    // encoding the decoded values, must give back every byte.
    let p = meshscope::formats::gem_ply::parse(&doc.bytes);
    if !p.stopped {
        let w = doc.rewrite().expect("a .ply has a writer").expect("a parsed file writes");
        assert!(w == doc.bytes, "a fully parsed file must write back identical");
    }
});
