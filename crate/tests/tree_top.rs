//! The tree panel's first part (`Document::tree_json_top`) is made from the shape's top
//! levels alone (`Shape::top`) until the whole shape is made: both ways give the same JSON,
//! for builder files (alone and with their chunks attached), the page's samples and the real
//! samples, at every depth the panel could ask for.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::document::Document;
use meshscope::formats::frostbite::guid;

/// Opens `bytes` twice: the top from `Shape::top`, then from the whole shape.
fn same_top(name: &str, open: impl Fn() -> Document) {
    for levels in 1..=6 {
        let doc = open();
        let top = doc.tree_json_top(levels);
        doc.shape();
        assert_eq!(top, doc.tree_json_top(levels), "{name}, {levels} levels");
    }
}

#[test]
fn builder_meshsets_and_their_chunks_have_the_same_top() {
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..40 {
        let b = sets::meshset_built(i, &mut rng);
        let name = format!("mesh{i:05}.MeshSet");
        same_top(&name, || meshscope::open(&name, b.resource.clone()));
        same_top(&format!("{name} with chunks"), || {
            let mut doc = meshscope::open(&name, b.resource.clone());
            for (g, c) in &b.chunks {
                doc.attach(&format!("{}.chunk", guid::hex(g)), c.clone()).expect("chunk attaches");
            }
            doc
        });
    }
    for (name, bytes) in meshscope::sample::sample_meshset() {
        same_top(&name, || meshscope::open(&name, bytes.clone()));
    }
}

#[test]
fn plys_have_the_same_top() {
    let mut files = sets::plys(12);
    files.push(("sample.ply".to_string(), meshscope::sample::sample_ply()));
    for (name, bytes) in files {
        same_top(&name, || meshscope::open(&name, bytes.clone()));
        same_top(&format!("{name}, structure first"), || meshscope::open_structure(&name, bytes.clone()));
    }
}

#[test]
fn the_samples_have_the_same_top() {
    let Some(samples) = common::gem_ply_samples() else { return };
    for (name, bytes) in samples {
        same_top(&name, || meshscope::open(&name, bytes.clone()));
    }
}
