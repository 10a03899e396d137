//! What the page does with a decoded file besides showing it: the first byte names the file
//! (`.ply`, `.res`, `.chunk` or any other), the rest is its bytes. The document, completed
//! from its structure, is exported to glb and OBJ, written back, and counted by the census
//! twice (the second time meets the kinds and entries of the first). Nothing may panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use meshscope::census::Census;
use meshscope::export::{gltf::write_glb, obj::write_obj};

const NAMES: [&str; 4] = ["fuzz.ply", "fuzz.res", "fuzz.chunk", "fuzz.bin"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else { return };
    let name = NAMES[pick as usize % NAMES.len()];
    let mut doc = meshscope::open_structure(name, bytes.to_vec());
    doc.complete();
    let _ = write_glb(&doc.mesh, name);
    for lod in &doc.mesh.lods {
        let _ = write_obj(lod, name);
    }
    let _ = doc.rewrite();
    let mut census = Census::new();
    census.add_file(name, bytes.to_vec());
    census.add_file(name, bytes.to_vec());
    let report = census.report(50);
    assert_eq!(report.files + report.skipped, 2, "each file is counted or skipped");
});
