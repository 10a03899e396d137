//! `open` leaves a MeshSet's checks made from its details alone (`FileFormat::later_checks`)
//! until someone reads the checks. Made then, they are the very checks of the whole decode, in
//! its order, and the summary is the same JSON; before, the first summary says they are still
//! to come. Attaching a chunk or a `.resmeta` to a document whose checks wait changes them as it
//! does when they were made at once. `.ply` files make all their checks with the decode.

mod common;
#[path = "common/sets.rs"]
mod sets;

use meshscope::document::Document;
use meshscope::formats::frostbite::guid;
use meshscope::formats::{self, Format};

/// Opened, `doc` has its first checks only; read, they are `formats::decode`'s.
fn checks_wait_and_then_match(name: &str, bytes: &[u8]) {
    let doc = meshscope::open(name, bytes.to_vec());
    let whole = Document::from_decode(name, doc.format, bytes.to_vec(), formats::decode(doc.format, name, bytes));
    let first = doc.summary_first();
    assert!(first.checks_pending, "{name}: the checks wait");
    // A MeshSet's checks all wait: they need only its details.
    let n = first.checks.len();
    assert!(n < whole.checks().len(), "{name}: {n} first checks");
    assert_eq!(first.checks, &whole.checks()[..n], "{name}: the first checks come first");
    assert!(first.json().expect("finite").ends_with(",\"checks_pending\":true}"), "{name}");
    assert_eq!(doc.checks(), whole.checks(), "{name}");
    assert!(!doc.summary_first().checks_pending, "{name}: made once read");
    assert_eq!(doc.summary().json(), whole.summary().json(), "{name}");
    assert_eq!(doc.summary_first().json(), whole.summary().json(), "{name}");
}

#[test]
fn builder_meshsets_make_their_later_checks_when_read() {
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..40 {
        let b = sets::meshset_built(i, &mut rng);
        checks_wait_and_then_match(&format!("mesh{i:05}.MeshSet"), &b.resource);
    }
    for (name, bytes) in sets::small_meshsets(20) {
        checks_wait_and_then_match(&name, &bytes);
    }
    for files in [meshscope::sample::sample_meshset(), meshscope::sample::sample_meshset_skinned()] {
        checks_wait_and_then_match(&files[0].0, &files[0].1);
    }
}

#[test]
fn a_cut_or_damaged_meshset_makes_the_same_checks_later() {
    let b = sets::meshset_built(7, &mut sets::Rng(sets::SEED));
    let r = &b.resource;
    let mut damaged = r.clone();
    // Past the header's first words, so that the file is still taken for a MeshSet.
    for k in (0x40..damaged.len()).step_by(37) {
        damaged[k] ^= 0x5a;
    }
    for bytes in [r[..r.len() / 2].to_vec(), r[..r.len() - 5].to_vec(), damaged] {
        let doc = meshscope::open("cut.MeshSet", bytes.clone());
        assert_eq!(doc.format, Format::FrostbiteMeshSet);
        assert!(!doc.errors.is_empty() || doc.checks().iter().any(|c| !c.passed));
        let whole = formats::decode(Format::FrostbiteMeshSet, "cut.MeshSet", &bytes);
        assert_eq!(doc.checks(), &whole.checks[..]);
        assert_eq!(doc.errors, whole.errors);
    }
}

#[test]
fn attaching_to_a_meshset_whose_checks_wait_changes_them_as_at_once() {
    let mut rng = sets::Rng(sets::SEED);
    for i in 0..12 {
        let b = sets::meshset_built(i, &mut rng);
        let name = format!("mesh{i:05}.MeshSet");
        let mut lazy = meshscope::open(&name, b.resource.clone());
        let d = formats::decode(Format::FrostbiteMeshSet, &name, &b.resource);
        let mut eager = Document::from_decode(&name, Format::FrostbiteMeshSet, b.resource.clone(), d);
        let resmeta = format!("{name}.resmeta");
        let mut attached = 0;
        for (g, c) in &b.chunks {
            let chunk = format!("{}.chunk", guid::hex(g));
            let (x, y) = (lazy.attach(&chunk, c.clone()).expect("attaches"), eager.attach(&chunk, c.clone()).unwrap());
            assert_eq!(x.checks(), y.checks(), "{chunk}");
            assert_eq!(lazy.checks(), eager.checks(), "{name} with {chunk}");
            attached += 1;
        }
        for doc in [&mut lazy, &mut eager] {
            doc.attach(&resmeta, b.resmeta.to_vec()).expect("the .resmeta attaches");
        }
        assert_eq!(lazy.checks(), eager.checks(), "{name} with {attached} chunks and its .resmeta");
        assert_eq!(lazy.summary().json(), eager.summary().json(), "{name}");
    }
}

#[test]
fn plys_make_every_check_with_the_decode() {
    let mut files = sets::plys(8);
    files.push(("sample.ply".to_string(), meshscope::sample::sample_ply()));
    files.extend(common::gem_ply_samples().unwrap_or_default());
    for (name, bytes) in files {
        let doc = meshscope::open(&name, bytes.clone());
        assert!(!doc.summary_first().checks_pending, "{name}");
        assert_eq!(doc.checks(), &formats::decode(Format::GemPly, &name, &bytes).checks[..], "{name}");
        assert!(!doc.checks().is_empty(), "{name}");
    }
}
