//! A decoded file: its bytes, span map, tree, mesh, errors and checks. Format-neutral;
//! the formats fill a `Decode` and the document indexes it.

use crate::error::Error;
use crate::formats::{self, Details, Format};
use crate::mesh::Mesh;
use crate::shape::{Shape, ShapeNode, Texts};
use crate::span::{Confidence, Record, SpanBounds, SpanMap, SpanText, Text};
use crate::tree::{self, Node};
use serde::Serialize;
use std::sync::OnceLock;

/// The decode model, where the formats and the document's users have always found it.
pub use crate::model::{Basis, Check, Decode};
use crate::model::{Parent, ParentChanges};

pub struct Document {
    pub name: String,
    pub format: Format,
    pub bytes: Vec<u8>,
    pub spans: SpanMap,
    /// Records whose extent the decoder declared (`Fields::records`), for the tree.
    records: Vec<Record>,
    /// The tree's shape, made on first use (`tree`, `tree_json`) from the span map and `records`.
    shape: OnceLock<Shape>,
    /// The structure tree, built on first use (`tree`) from the shape.
    tree: OnceLock<Vec<Node>>,
    pub mesh: Mesh,
    pub errors: Vec<Error>,
    /// The checks (`checks`): on first use those of `first_checks` and then the format's
    /// later ones (`FileFormat::later_checks`), unless the decode made them all.
    checks: OnceLock<Vec<Check>>,
    /// The checks `formats::decode_first` made, while `checks` waits.
    first_checks: Vec<Check>,
    pub facts: Vec<(Text, Text)>,
    pub details: Details,
    /// Names of attached companion files; `Source::file` N refers to `attached[N-1]`.
    pub attached: Vec<String>,
    /// Opened by `open_structure`: the mesh (and the checks that need it) wait for `complete`.
    pub pending: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Coverage {
    pub proven: u64,
    pub observed: u64,
    pub inferred: u64,
    pub unknown: u64,
    pub uncovered: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SectionSummary<'a> {
    pub name: &'a str,
    pub vertices: u32,
    pub triangles: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Bounds {
    pub min: [f32; 3],
    pub max: [f32; 3],
}

#[derive(Debug, Clone, Serialize)]
pub struct LodSummary<'a> {
    pub vertices: usize,
    pub triangles: usize,
    pub sections: Vec<SectionSummary<'a>>,
    pub bounds: Option<Bounds>,
}

/// What the page's summary panel and `inspect` show of a document, borrowing its lists.
#[derive(Debug, Clone, Serialize)]
pub struct Summary<'a> {
    pub file: &'a str,
    pub format: Format,
    pub size: u64,
    pub coverage: Coverage,
    pub facts: &'a [(Text, Text)],
    pub checks: &'a [Check],
    pub errors: Vec<ErrorInfo>,
    pub mesh: Vec<LodSummary<'a>>,
    pub attached: &'a [String],
    /// The mesh and its checks are still to come (`Document::complete`).
    pub pending: bool,
    /// Checks are still to come, and `Document::summary` makes them (`summary_first`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub checks_pending: bool,
}

/// An error as the page and the command line show it.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorInfo {
    pub offset: u64,
    pub path: String,
    /// `truncated`, `bad_value`, `limit_exceeded` or `unsupported` (the serde tag of `ErrorKind`).
    pub kind: &'static str,
    pub message: String,
}

impl From<&Error> for ErrorInfo {
    fn from(e: &Error) -> Self {
        ErrorInfo { offset: e.offset, path: e.path.clone(), kind: e.kind_name(), message: e.message() }
    }
}

impl Document {
    /// Builds a document from a format's decode: indexes the spans; the tree waits for `tree`.
    pub fn from_decode(name: &str, format: Format, bytes: Vec<u8>, mut d: Decode) -> Document {
        let checks = OnceLock::from(std::mem::take(&mut d.checks));
        Document { checks, ..Document::from_first(name, format, bytes, d) }
    }

    /// `from_decode` of a `formats::decode_first`: the format's later checks wait for `checks`.
    pub fn from_first(name: &str, format: Format, bytes: Vec<u8>, d: Decode) -> Document {
        Document {
            spans: SpanMap::over(d.fields.spans, d.fields.regions, &bytes),
            name: name.to_string(),
            format,
            bytes,
            records: d.fields.records,
            shape: OnceLock::new(),
            tree: OnceLock::new(),
            mesh: d.mesh,
            errors: d.errors,
            checks: OnceLock::new(),
            first_checks: d.checks,
            facts: d.facts,
            details: d.details,
            attached: Vec::new(),
            pending: false,
        }
    }

    /// Finishes a document opened by `open_structure`: decodes it whole (mesh, checks).
    /// Nothing to do for one opened whole.
    pub fn complete(&mut self) {
        if !self.pending {
            return;
        }
        let bytes = std::mem::take(&mut self.bytes);
        let d = formats::decode(self.format, &self.name, &bytes);
        *self = Document::from_decode(&self.name, self.format, bytes, d);
    }

    /// Attaches a companion file (a MeshSet's geometry chunk) and returns it as a document
    /// of its own, decoded in the context of this one.
    pub fn attach(&mut self, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
        self.attach_at(None, name, bytes)
    }

    /// Attaches a companion file to a place the person chose (a MeshSet's LOD), whatever its
    /// name says.
    pub fn attach_to_lod(&mut self, lod: usize, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
        self.attach_at(Some(lod), name, bytes)
    }

    /// What this document is, as a format's `attach` reads it.
    pub fn as_parent(&self) -> Parent<'_> {
        Parent {
            name: &self.name,
            format: self.format,
            bytes: &self.bytes,
            spans: self.spans.fixed(),
            mesh: &self.mesh,
            checks: self.checks(),
            errors: &self.errors,
            details: &self.details,
            attached: self.attached.len(),
        }
    }

    fn attach_at(&mut self, lod: Option<usize>, name: &str, bytes: Vec<u8>) -> Result<Document, Error> {
        let a = formats::attach(&self.as_parent(), lod, name, &bytes)?;
        self.apply(name, a.parent);
        Ok(Document::from_decode(name, a.format, bytes, a.companion))
    }

    /// Applies what attaching the companion `name` changes here, in `ParentChanges`' order.
    fn apply(&mut self, name: &str, c: ParentChanges) {
        if let Some(d) = c.redecode {
            let attached = std::mem::take(&mut self.attached);
            let bytes = std::mem::take(&mut self.bytes);
            *self = Document { attached, ..Document::from_decode(&self.name, self.format, bytes, d) };
        }
        if let Some(d) = c.details {
            self.details = d;
        }
        if let Some(g) = c.lod {
            if let Some(x) = self.mesh.lods.get_mut(g.index) {
                *x = g.lod;
            }
        }
        if let Some(checks) = c.checks {
            self.checks = OnceLock::from(checks);
        }
        for e in c.errors {
            if !self.errors.contains(&e) {
                self.errors.push(e);
            }
        }
        if c.listed {
            self.attached.push(name.to_string());
        }
    }

    /// Every check, in the order `formats::decode` makes them; those the format makes later
    /// from the details are made on first use.
    pub fn checks(&self) -> &[Check] {
        self.checks.get_or_init(|| {
            let mut c = self.first_checks.clone();
            c.extend(formats::later_checks(self.format, &self.details));
            c
        })
    }

    /// The shape of the structure tree, derived from the spans' paths on first use.
    pub fn shape(&self) -> &Shape {
        self.shape.get_or_init(|| Shape::new(self.spans.fixed(), self.spans.regions(), &self.records))
    }

    /// The texts the shape's nodes point into.
    pub fn texts(&self) -> Texts<'_> {
        Texts { spans: self.spans.fixed(), regions: self.spans.regions() }
    }

    /// The structure tree as nodes (for the diff and the command line), built on first use.
    pub fn tree(&self) -> &[Node] {
        self.tree.get_or_init(|| tree::nodes(self.shape(), &self.texts(), &self.bytes))
    }

    /// The whole structure tree as JSON, as `tree::to_json(self.tree())` writes it, made from
    /// the shape without building the nodes (the page's tree).
    pub fn tree_json(&self) -> String {
        tree::json(self.shape(), &self.texts(), &self.bytes)
    }

    /// The tree's top `levels` levels as JSON (`tree::json_levels`): the tree panel's first
    /// part, whose nodes count the children left out (`kids`).
    pub fn tree_json_top(&self, levels: usize) -> String {
        let levels = levels.max(1);
        if let Some(shape) = self.shape.get() {
            return tree::json_levels(shape, &self.texts(), &self.bytes, &shape.roots, levels);
        }
        // The shape to one level below the ones shown (their children are counted); the
        // whole shape waits for the first look further down, and so do the placeholders'
        // fields (`laid`) when no placeholder is above the last level.
        let regions = self.spans.regions();
        if let Some((spans, _)) = self.spans.laid().filter(|&(_, depth)| depth >= levels) {
            let top = Shape::top(spans, regions, &self.records, levels.saturating_add(1));
            let kids = |n: &ShapeNode| n.span().and_then(|i| self.spans.laid_children(i as usize));
            return tree::json_levels_laid(&top, &Texts { spans, regions }, &self.bytes, &top.roots, levels, &kids);
        }
        let texts = self.texts();
        let top = Shape::top(texts.spans, regions, &self.records, levels.saturating_add(1));
        tree::json_levels(&top, &texts, &self.bytes, &top.roots, levels)
    }

    /// The children of the node at `path` as JSON, `levels` levels deep; `[]` for a path the
    /// tree does not have. A path, not an index: it names the same node after `complete` or a
    /// companion's redecode.
    pub fn tree_children_json(&self, path: &str, levels: usize) -> String {
        let (shape, texts) = (self.shape(), self.texts());
        let kids = shape.find(&texts, path).map_or(&[][..], |i| shape.children(shape.node(i)));
        tree::json_levels(shape, &texts, &self.bytes, kids, levels.max(1))
    }

    pub fn spans_in(&self, start: u64, end: u64) -> Vec<SpanText> {
        self.spans.window(start, end, &self.bytes)
    }

    /// Where the spans of `spans_in` are and how sure, with no text made (the hex view's colors).
    pub fn span_bounds(&self, start: u64, end: u64) -> Vec<SpanBounds> {
        self.spans.bounds(start, end)
    }

    pub fn span_at(&self, offset: u64) -> Option<SpanText> {
        self.spans.at(offset, &self.bytes)
    }

    pub fn region_items(&self, region: u32, first: u64, count: u64) -> Vec<Node> {
        match self.spans.regions().get(region as usize) {
            Some(r) => tree::region_items(r, first, count, &self.bytes),
            None => Vec::new(),
        }
    }

    pub fn coverage(&self) -> Coverage {
        let len = self.bytes.len() as u64;
        let c = self.spans.coverage(len);
        let covered: u64 = c.iter().sum();
        Coverage {
            proven: c[Confidence::Proven as usize],
            observed: c[Confidence::Observed as usize],
            inferred: c[Confidence::Inferred as usize],
            unknown: c[Confidence::Unknown as usize],
            uncovered: len.saturating_sub(covered),
        }
    }

    /// The whole summary; its checks are made if they are still to come.
    pub fn summary(&self) -> Summary<'_> {
        let checks = self.checks();
        Summary { checks, checks_pending: false, ..self.summary_first() }
    }

    /// The summary as it is now, for the page's first paint: with the checks still to come
    /// it has the decode's first ones alone (`checks_pending`), and `summary` gives them all.
    pub fn summary_first(&self) -> Summary<'_> {
        let mesh = self
            .mesh
            .lods
            .iter()
            .map(|l| LodSummary {
                vertices: l.vertex_count(),
                triangles: l.triangle_count(),
                sections: l
                    .sections
                    .iter()
                    .map(|s| SectionSummary { name: &s.name, vertices: s.vertex_count, triangles: s.index_count / 3 })
                    .collect(),
                bounds: l.bounds().map(|(min, max)| Bounds { min, max }),
            })
            .collect();
        Summary {
            file: &self.name,
            format: self.format,
            size: self.bytes.len() as u64,
            coverage: self.coverage(),
            facts: &self.facts,
            checks: self.checks.get().map_or(&self.first_checks, Vec::as_slice),
            errors: self.errors.iter().map(ErrorInfo::from).collect(),
            mesh,
            attached: &self.attached,
            pending: self.pending,
            checks_pending: self.checks.get().is_none(),
        }
    }

    /// Encodes the decoded file back, where the format has a writer.
    pub fn rewrite(&self) -> Option<Result<Vec<u8>, Error>> {
        formats::rewrite(self.format, &self.details, &self.bytes)
    }
}

/// Detects the format of `bytes` and decodes it. Never fails: an unknown file opens as
/// raw bytes, and a file that fails partway keeps what was decoded and lists the error.
pub fn open(name: &str, bytes: Vec<u8>) -> Document {
    let format = formats::detect(name, &bytes);
    match formats::decode_first(format, name, &bytes) {
        Some(d) => Document::from_first(name, format, bytes, d),
        None => {
            let d = formats::decode(format, name, &bytes);
            Document::from_decode(name, format, bytes, d)
        }
    }
}

/// Like `open`, but quick on a large file: where the format allows, only the structure is
/// decoded (spans, tree, structural errors) and the document is `pending` until `complete`.
pub fn open_structure(name: &str, bytes: Vec<u8>) -> Document {
    let format = formats::detect(name, &bytes);
    match formats::decode_structure(format, &bytes) {
        Some(d) => Document { pending: true, ..Document::from_decode(name, format, bytes, d) },
        None => open(name, bytes),
    }
}
