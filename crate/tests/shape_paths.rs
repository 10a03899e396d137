//! The shape of a file's paths against the paths themselves, with the library's own name keys
//! (its unit tests use keys that collide on purpose).

#[path = "common/sets.rs"]
mod sets;

use meshscope::shape::{Shape, Texts};
use meshscope::span::{Confidence, Fields};

/// Checks the shape of `paths` (a span each, in order) against the paths themselves: a node
/// for each distinct prefix, found by it, and each path's node that of its first span.
fn check_against_paths(paths: &[String]) {
    let mut f = Fields::default();
    for (at, p) in paths.iter().enumerate() {
        f.add(at as u64, 1, p, "u8", "0", Confidence::Proven, "");
    }
    let shape = Shape::new(&f.spans, &f.regions, &f.records);
    let t = Texts { spans: &f.spans, regions: &f.regions };
    let mut prefixes: Vec<&str> = Vec::new();
    for p in paths {
        prefixes.extend(p.match_indices('.').map(|(e, _)| &p[..e]).chain([p.as_str()]));
    }
    prefixes.sort_unstable();
    prefixes.dedup();
    assert_eq!(shape.nodes.len(), prefixes.len(), "one node a prefix");
    for pre in &prefixes {
        let i = shape.find(&t, pre).unwrap_or_else(|| panic!("{pre} not found"));
        assert_eq!(t.path(shape.node(i)), *pre);
    }
    for p in paths {
        let first = paths.iter().position(|q| q == p).unwrap_or(0);
        // A path first seen as a group stays one when it comes as a field.
        let dotted = format!("{p}.");
        let group_first = paths[..first].iter().any(|q| q.starts_with(&dotted));
        let want = (!group_first).then_some(first as u32);
        assert_eq!(shape.find(&t, p).and_then(|i| shape.node(i).span()), want, "{p}");
    }
    let kids: usize = shape.nodes.iter().map(|n| shape.children(n).len()).sum();
    assert_eq!(kids + shape.roots.len(), shape.nodes.len(), "each node a child once");
}

#[test]
fn paths_that_come_again_and_fields_that_gain_fields_are_one_node_each() {
    // Forty fields at the top and in a record; fields that come again early and late; an
    // early and a late field that later have fields under them; a group that later comes as
    // a field.
    let mut paths: Vec<String> = Vec::new();
    for i in 0..40 {
        paths.push(format!("rec.f{i}"));
        paths.push(format!("top{i}"));
    }
    paths.extend(
        ["rec.f3", "rec.f35", "top2", "top39", "rec.f1.sub", "rec.f30.sub", "top5.x", "top33.y"].map(String::from),
    );
    paths.extend(["rec.g.a", "rec.g", "rec.f1.sub", "rec.f1", "g2.a", "g2"].map(String::from));
    check_against_paths(&paths);
    // The same paths in other orders.
    let mut rng = sets::Rng(sets::SEED);
    for _ in 0..8 {
        for i in (1..paths.len()).rev() {
            paths.swap(i, rng.next() as usize % (i + 1));
        }
        check_against_paths(&paths);
    }
}
