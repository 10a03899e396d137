//! The summary as JSON, written by hand: the text `serde_json` makes of `Summary` with f32
//! widened to f64, byte for byte, with its strings scanned for escapes eight bytes at a time.
//! In wasm `serde_json`'s byte-at-a-time scan was most of the summary's cost, and a MeshSet's
//! summary is mostly check texts (docs/performance.md).

use crate::document::{Bounds, Coverage, ErrorInfo, LodSummary, Summary};
use crate::json::json_chars;
use crate::model::{Basis, Check};
use crate::show::{decimal, Digits};

impl Summary<'_> {
    /// The JSON; `None` when a bound is NaN or infinite, which JSON cannot hold.
    pub fn json(&self) -> Option<String> {
        let finite =
            self.mesh.iter().flat_map(|l| &l.bounds).all(|b| b.min.iter().chain(&b.max).all(|x| x.is_finite()));
        if !finite {
            return None;
        }
        let mut w = Writer(String::with_capacity(4096));
        w.raw("{\"file\":");
        w.str(self.file);
        w.raw(",\"format\":");
        w.str(self.format.name());
        w.raw(",\"size\":");
        w.num(self.size);
        w.raw(",\"coverage\":");
        w.coverage(&self.coverage);
        w.raw(",\"facts\":");
        w.list(self.facts, |w, (k, v)| {
            w.raw("[");
            w.str(k);
            w.raw(",");
            w.str(v);
            w.raw("]");
        });
        w.raw(",\"checks\":");
        w.list(self.checks, Writer::check);
        w.raw(",\"errors\":");
        w.list(&self.errors, Writer::error);
        w.raw(",\"mesh\":");
        w.list(&self.mesh, Writer::lod);
        w.raw(",\"attached\":");
        w.list(self.attached, |w, a| w.str(a));
        w.raw(",\"pending\":");
        w.raw(if self.pending { "true" } else { "false" });
        w.raw(if self.checks_pending { ",\"checks_pending\":true}" } else { "}" });
        Some(w.0)
    }
}

struct Writer(String);

impl Writer {
    fn raw(&mut self, s: &str) {
        self.0.push_str(s);
    }

    fn str(&mut self, s: &str) {
        self.0.push('"');
        json_chars(s, &mut self.0);
        self.0.push('"');
    }

    fn num(&mut self, n: u64) {
        self.0.push_str(decimal(n, &mut Digits::new()));
    }

    /// An f32 as `serde_json` writes the f64 it widens to (finite: `json` checked).
    fn float(&mut self, x: f32) {
        self.0.push_str(&serde_json::to_string(&(x as f64)).unwrap_or_default());
    }

    fn list<T>(&mut self, items: &[T], mut item: impl FnMut(&mut Self, &T)) {
        self.raw("[");
        for (i, x) in items.iter().enumerate() {
            self.raw(if i == 0 { "" } else { "," });
            item(self, x);
        }
        self.raw("]");
    }

    fn coverage(&mut self, c: &Coverage) {
        let levels = [
            ("{\"proven\":", c.proven),
            (",\"observed\":", c.observed),
            (",\"inferred\":", c.inferred),
            (",\"unknown\":", c.unknown),
            (",\"uncovered\":", c.uncovered),
        ];
        for (key, n) in levels {
            self.raw(key);
            self.num(n);
        }
        self.raw("}");
    }

    fn check(&mut self, c: &Check) {
        self.raw("{\"name\":");
        self.str(&c.name);
        self.raw(if c.passed { ",\"passed\":true,\"stored\":" } else { ",\"passed\":false,\"stored\":" });
        self.str(&c.stored);
        self.raw(",\"measured\":");
        self.str(&c.measured);
        self.raw(",\"offset\":");
        match c.offset {
            Some(o) => self.num(o),
            None => self.raw("null"),
        }
        self.raw(",\"path\":");
        self.str(&c.path);
        self.raw(match c.basis {
            Basis::Description => ",\"basis\":\"description\",\"tolerance\":",
            Basis::Guess => ",\"basis\":\"guess\",\"tolerance\":",
        });
        self.str(&c.tolerance);
        self.raw("}");
    }

    fn error(&mut self, e: &ErrorInfo) {
        self.raw("{\"offset\":");
        self.num(e.offset);
        self.raw(",\"path\":");
        self.str(&e.path);
        self.raw(",\"kind\":");
        self.str(e.kind);
        self.raw(",\"message\":");
        self.str(&e.message);
        self.raw("}");
    }

    fn lod(&mut self, l: &LodSummary) {
        self.raw("{\"vertices\":");
        self.num(l.vertices as u64);
        self.raw(",\"triangles\":");
        self.num(l.triangles as u64);
        self.raw(",\"sections\":");
        self.list(&l.sections, |w, s| {
            w.raw("{\"name\":");
            w.str(s.name);
            w.raw(",\"vertices\":");
            w.num(s.vertices as u64);
            w.raw(",\"triangles\":");
            w.num(s.triangles as u64);
            w.raw("}");
        });
        self.raw(",\"bounds\":");
        match &l.bounds {
            Some(b) => self.bounds(b),
            None => self.raw("null"),
        }
        self.raw("}");
    }

    fn bounds(&mut self, b: &Bounds) {
        for (key, v) in [("{\"min\":", &b.min), (",\"max\":", &b.max)] {
            self.raw(key);
            self.list(v, |w, &x| w.float(x));
        }
        self.raw("}");
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;

    /// serde_json's compact output with f32 written as the f64 it widens to: what the summary's
    /// JSON was made with before it was written by hand.
    struct Widened;
    impl serde_json::ser::Formatter for Widened {
        fn write_f32<W: ?Sized + std::io::Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
            serde_json::ser::CompactFormatter.write_f64(w, v as f64)
        }
    }

    fn serde(s: &crate::document::Summary) -> String {
        let mut out = Vec::new();
        s.serialize(&mut serde_json::Serializer::with_formatter(&mut out, Widened)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_summary_json_is_serde_json_s() {
        let ply = crate::sample::sample_ply();
        let mut docs = vec![crate::open("sample.ply", ply.clone())];
        // MeshSets with their chunks attached (measured checks, tolerances), and without.
        for files in [crate::sample::sample_meshset(), crate::sample::sample_meshset_skinned()] {
            let mut d = crate::open(&files[0].0, files[0].1.clone());
            docs.push(crate::open(&files[0].0, files[0].1.clone()));
            for (name, bytes) in &files[1..] {
                docs.push(d.attach(name, bytes.clone()).unwrap());
            }
            docs.push(d);
        }
        // Texts with every escape and an error, a pending document and a file of no format.
        docs.push(crate::open("q\"u\\o\te\u{1}é.ply", ply[..ply.len() / 3].to_vec()));
        docs.push(crate::open_structure("big.ply", ply.clone()));
        docs.push(crate::open("raw.bin", vec![0; 40]));
        assert!(docs.iter().any(|d| !d.errors.is_empty()) && docs.iter().any(|d| d.pending));
        // The first summary of a MeshSet, its checks still to come.
        docs.insert(
            0,
            crate::open(&crate::sample::sample_meshset()[0].0, crate::sample::sample_meshset()[0].1.clone()),
        );
        assert!(docs[0].summary_first().checks_pending);
        for d in &docs {
            for s in [d.summary_first(), d.summary()] {
                assert_eq!(s.json().as_deref(), Some(serde(&s).as_str()), "{}", d.name);
            }
        }
        let d = crate::open("sample.ply", ply);
        let mut s = d.summary();
        s.mesh[0].bounds = Some(crate::document::Bounds { min: [0.0, f32::NAN, 0.0], max: [1.0; 3] });
        assert_eq!(s.json(), None);
    }
}
