//! Any bytes, any name: detection, decoding, the summary, a window of spans, the tree's top
//! and a census of the file (as any format it is taken for) never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let doc = meshscope::open("fuzz.bin", data.to_vec());
    let _ = doc.summary();
    let _ = doc.spans_in(0, 4096);
    let _ = doc.tree_json_top(2);
    let _ = doc.rewrite();
    let mut c = meshscope::census::Census::new();
    for name in ["fuzz.bin", "fuzz.ply", "fuzz.res"] {
        c.add_file(name, data.to_vec());
    }
    let _ = c.report(50);
});
