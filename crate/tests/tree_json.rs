//! The page's tree JSON, written straight from the shape (`Document::tree_json`), is byte for
//! byte the JSON of the built nodes (`tree::to_json(doc.tree())`): for builder MeshSets (alone,
//! each chunk attached, and with chunks and metadata attached), builder `.ply` files opened
//! whole and structure first, every input under `tests/regressions/`, and the real samples.
//! The tree panel's parts (`tree_json_top`, then `tree_children_json` of every node whose
//! children were left out) put together are that tree too.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::document::Document;
use meshscope::formats::frostbite::guid;
use meshscope::tree;
use serde_json::Value;

fn same(doc: &Document, what: &str) {
    let nodes = tree::to_json(doc.tree());
    assert!(doc.tree_json() == nodes, "{what}: tree_json differs from to_json of the nodes");
    let whole: Value = serde_json::from_str(&nodes).expect("the tree's JSON parses");
    for levels in [1, 2, 3] {
        let mut top: Value = serde_json::from_str(&doc.tree_json_top(levels)).expect("the top's JSON parses");
        fill(doc, &mut top, levels, 1, what);
        assert!(top == whole, "{what}: the top {levels} levels and the children asked for are not the tree");
    }
}

/// Puts back the children left out of `nodes` (at `depth`, 1 for the top), asking the
/// document for them as the page does, and checks that only the last level left any out.
fn fill(doc: &Document, nodes: &mut Value, levels: usize, depth: usize, what: &str) {
    for n in nodes.as_array_mut().expect("an array of nodes") {
        let o = n.as_object_mut().expect("a node object");
        if let Some(kids) = o.remove("kids") {
            assert_eq!(depth % levels, 0, "{what}: {} left its children out above the last level", o["path"]);
            let path = o["path"].as_str().expect("a path");
            let mut children: Value = serde_json::from_str(&doc.tree_children_json(path, levels)).unwrap();
            assert_eq!(children.as_array().map(Vec::len), kids.as_u64().map(|k| k as usize), "{what}: kids");
            fill(doc, &mut children, levels, depth + 1, what);
            o.insert("children".into(), children);
        } else if let Some(children) = o.get_mut("children") {
            fill(doc, children, levels, depth + 1, what);
        }
    }
}

fn same_opened(name: &str, bytes: &[u8]) {
    same(&meshscope::open(name, bytes.to_vec()), name);
    same(&meshscope::open_structure(name, bytes.to_vec()), &format!("{name} (structure first)"));
}

#[test]
fn builder_meshsets_and_their_chunks() {
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..60 {
        let b = sets::meshset_built(i, &mut rng);
        let name = format!("mesh{i:05}.MeshSet");
        let mut doc = meshscope::open(&name, b.resource.clone());
        assert!(!doc.tree().is_empty(), "{name}: a tree");
        same(&doc, &name);
        for (g, c) in &b.chunks {
            let chunk_name = format!("{}.chunk", guid::hex(g));
            let chunk = doc.attach(&chunk_name, c.clone()).expect("chunk attaches");
            same(&chunk, &chunk_name);
        }
        doc.attach(&format!("{name}.resmeta"), b.resmeta.to_vec()).expect("resmeta attaches");
        same(&doc, &format!("{name} with its companions"));
    }
}

#[test]
fn builder_plys() {
    same_opened("sample.ply", &meshscope::sample::sample_ply());
    let doc = meshscope::open("sample.ply", meshscope::sample::sample_ply());
    assert_eq!(doc.tree_children_json("no.such.path", 2), "[]", "no such node: no children");
    assert_eq!(doc.tree_children_json("", 2), "[]", "no such node: no children");
    for (name, bytes) in sets::plys(16) {
        same_opened(&name, &bytes);
    }
}

#[test]
fn regression_inputs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/regressions");
    let mut n = 0;
    for p in std::fs::read_dir(&dir).expect("tests/regressions exists").map(|e| e.unwrap().path()) {
        if p.extension().is_some_and(|x| x == "md") {
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        same_opened(&name, &std::fs::read(&p).unwrap());
        n += 1;
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
}

#[test]
fn the_samples() {
    if let Some(samples) = common::gem_ply_samples() {
        assert!(!samples.is_empty(), "samples folder holds .ply files");
        for (name, bytes) in samples {
            same_opened(&name, &bytes);
        }
    }
}
