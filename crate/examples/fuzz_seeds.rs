//! Writes raw-mode seeds for the frostbite_meshset fuzz target into crate/fuzz/corpus/.
use meshscope::formats::frostbite::builder::{build, cube, grid, BuildLod, BuildMesh};
fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/frostbite_meshset");
    std::fs::create_dir_all(&dir).unwrap();
    for (t, inline) in [(0u8, false), (1, true), (2, false)] {
        let mut c = cube("S/A", 1.0, [0.0; 3]);
        if t != 0 {
            c.joints = vec![[0, 1, 0, 0]; c.positions.len()];
            c.weights = vec![[1.0, 0.0, 0.0, 0.0]; c.positions.len()];
            c.bones = vec![0, 1];
        }
        let b = build(&BuildMesh {
            name: "s/seed".into(),
            mesh_type: t,
            bone_count: if t == 0 { 0 } else { 2 },
            lods: vec![BuildLod { sections: vec![c, grid("S/B", 1, 1.0)], index_32: t == 2, inline }],
        });
        let mut seed = vec![0u8];
        seed.extend((b.resource.len() as u16).to_le_bytes());
        seed.extend(&b.resource);
        if let Some((_, ch)) = b.chunks.first() {
            seed.extend(ch);
        }
        std::fs::write(dir.join(format!("seed-type{t}")), seed).unwrap();
    }
}
