//! What one file gives the census, made where the file was decoded: its records in walk
//! order, and for each the values to count (fields, counts, array regions) and the byte
//! ranges no field explains. Names are the planner's own small ids, defined in the plan that
//! first uses them, so the census resolves a name once per planner, not once per record.
//! A plan is much smaller than the decoded document it comes from, so it is what crosses from
//! a worker thread to the counting one (docs/performance.md).

use crate::formats::Format;
use crate::span::Confidence;

/// A name a planner made an id for, in the order it made them (each list of ids counts from 0
/// per planner).
#[derive(Debug, Clone)]
pub enum NewName {
    /// A record kind: its folded path, `lod[*].section[*]`, in a format.
    Kind { format: &'static str, path: String },
    /// A field name (its record kind is the one of the record it is counted in).
    Field(FieldDef),
    /// A folded child name of a record kind (the record's it is counted in): the array it
    /// counts, or its region.
    Slot { folded: String },
}

/// A field name as a planner first met it. An entry takes the type, width and confidence of
/// the first field counted in it, which is always one whose name a planner met for the first
/// time.
#[derive(Debug, Clone)]
pub struct FieldDef {
    /// The unfolded leaf name, `lod_ptr[3]` or `flags`.
    pub name: String,
    pub ty: String,
    /// The span's length in bytes.
    pub width: u64,
    pub confidence: Confidence,
    /// Whether the name is indexed (`lod_ptr[3]`: several values per record, so no relation).
    pub indexed: bool,
}

/// How a field's value is given in a plan: as text, or as the kind its bytes in the file
/// are shown as (`show::Kind::code`; the flags kinds, whose names table has no code, go as
/// text). No kind has this code.
pub const VALUE_TEXT: u8 = 0;

/// One field in one record. Its value is the next `value_len` bytes of `Plan::values` as
/// text (`shown` is `VALUE_TEXT`), or its `value_len` bytes in the file from `at`, shown as
/// the kind of code `shown`: the census makes a value's text once, not once per record.
#[derive(Debug, Clone)]
pub struct FieldOp {
    /// The planner's field id.
    pub id: u32,
    /// The value's length, of its text in `Plan::values` (`Plan::push` cuts a text to fit a
    /// u32) or of its bytes in the file.
    pub value_len: u32,
    /// Where the field starts in the file.
    pub at: u64,
    /// Whether the field's type is a flags type, whose `0x5 (a | c)` text is a number.
    pub flags: bool,
    /// `VALUE_TEXT`, or the code of the kind the bytes are shown as (`Kind::code`).
    pub shown: u8,
}

impl FieldOp {
    /// How many bytes of `Plan::values` the value takes.
    pub fn text_len(&self) -> usize {
        if self.shown == VALUE_TEXT {
            self.value_len as usize
        } else {
            0
        }
    }
}

/// A count of indexed children (`lod[*].section[*]` per LOD), or an array region's count and
/// stride.
#[derive(Debug, Clone, Copy)]
pub struct NumOp {
    /// The planner's slot id.
    pub slot: u32,
    /// An array region (`n` elements of `stride` bytes), not a count of indexed children.
    pub region: bool,
    /// The count.
    pub n: u64,
    /// The region's stride.
    pub stride: u64,
    /// Where the first child or the region starts.
    pub at: u64,
}

/// One record, in walk order (each after its parent). Its parts are runs of the plan's lists,
/// each starting where the previous record's ends (`Plan::parts`).
#[derive(Debug, Clone)]
pub struct PlanRecord {
    /// The planner's kind id.
    pub kind: u32,
    /// The enclosing record's index; `NO_PARENT` for the file itself.
    pub parent: u32,
    pub ends: Ends,
    /// Where it starts and ends, as far as its own file tells.
    pub lo: u64,
    pub hi: u64,
    /// For a lone element of an array of records, whose end is where the stride of an
    /// earlier file's elements of its kind says: the uncovered bytes from `hi` on end at
    /// `reach` (0 when there is nothing to take), and `Parts::ext` are those bytes less
    /// sub-records, which the record owns if the stride says so. Only the census knows the
    /// earlier files.
    pub reach: u64,
}

pub const NO_PARENT: u32 = u32::MAX;

/// Where a record's parts end in the plan's lists.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ends {
    /// Its path past its parent's, in `Plan::paths`.
    pub path: u32,
    pub fields: u32,
    pub nums: u32,
    /// In `Plan::holes`, one after the other: the bytes no span covers, the `ext` bytes, the
    /// bytes of Unknown fields.
    pub holes: u32,
    pub ext: u32,
    pub unknown: u32,
}

/// One record kind's stride as an array element, as the file last had it.
#[derive(Debug, Clone, Copy)]
pub struct KindStride {
    /// The planner's kind id.
    pub kind: u32,
    pub stride: u64,
}

/// A record's parts.
pub struct Parts<'p> {
    pub fields: &'p [FieldOp],
    pub nums: &'p [NumOp],
    pub holes: &'p [(u64, u64)],
    pub ext: &'p [(u64, u64)],
    pub unknown: &'p [(u64, u64)],
}

#[derive(Debug, Default)]
pub struct Plan {
    pub name: String,
    pub format: Format,
    /// The file's length, and whether its decode had errors.
    pub len: u64,
    pub errors: bool,
    /// Names first used in this plan.
    pub new_names: Vec<NewName>,
    /// The records' paths, each past its parent's, one after the other.
    pub paths: String,
    pub records: Vec<PlanRecord>,
    pub fields: Vec<FieldOp>,
    /// The values of the fields given as text, one text after the other: most are a few
    /// bytes, far less than a `Short` each would take.
    pub values: String,
    pub nums: Vec<NumOp>,
    pub holes: Vec<(u64, u64)>,
    /// The stride each record kind's array elements last had in this file, where they had
    /// one: the stride a lone element of a later file takes.
    pub strides: Vec<KindStride>,
}

impl Plan {
    /// Empties the plan, keeping its lists' room.
    pub fn clear(&mut self) {
        self.name.clear();
        self.format = Format::Unknown;
        self.len = 0;
        self.errors = false;
        self.new_names.clear();
        self.paths.clear();
        self.records.clear();
        self.fields.clear();
        self.values.clear();
        self.nums.clear();
        self.holes.clear();
        self.strides.clear();
    }

    /// Adds a field and its value.
    pub fn push(&mut self, id: u32, value: &str, flags: bool, at: u64) {
        // A text of 2 GB is no field value: cut, on a character boundary, rather than lie
        // about its length.
        let mut n = value.len().min((1 << 31) - 1);
        while !value.is_char_boundary(n) {
            n -= 1;
        }
        self.values.push_str(&value[..n]);
        self.fields.push(FieldOp { id, value_len: n as u32, at, flags, shown: VALUE_TEXT });
    }

    /// Adds a field whose value is its `len` bytes in the file from `at`, shown as the kind
    /// of code `shown`.
    pub fn push_bytes(&mut self, id: u32, shown: u8, len: u32, flags: bool, at: u64) {
        self.fields.push(FieldOp { id, value_len: len, at, flags, shown });
    }

    /// About how much memory the plan's lists hold.
    pub fn capacity_bytes(&self) -> usize {
        use std::mem::size_of;
        self.fields.capacity() * size_of::<FieldOp>()
            + self.values.capacity()
            + self.records.capacity() * size_of::<PlanRecord>()
            + self.nums.capacity() * size_of::<NumOp>()
            + self.holes.capacity() * size_of::<(u64, u64)>()
            + self.paths.capacity()
    }

    /// The parts of record `i`.
    pub fn parts(&self, i: usize) -> Parts<'_> {
        let (Some(r), before) = (self.records.get(i), i.checked_sub(1).and_then(|b| self.records.get(b))) else {
            return Parts { fields: &[], nums: &[], holes: &[], ext: &[], unknown: &[] };
        };
        let b = before.map_or(Ends::default(), |b| b.ends);
        fn run<T>(list: &[T], a: u32, b: u32) -> &[T] {
            list.get(a as usize..b as usize).unwrap_or(&[])
        }
        let e = r.ends;
        Parts {
            fields: run(&self.fields, b.fields, e.fields),
            nums: run(&self.nums, b.nums, e.nums),
            holes: run(&self.holes, b.unknown, e.holes),
            ext: run(&self.holes, e.holes, e.ext),
            unknown: run(&self.holes, e.ext, e.unknown),
        }
    }

    /// Record `i`'s unfolded path, `lod[1].section[3]`: its parents' parts and its own.
    pub fn path(&self, i: usize) -> String {
        let mut out = String::with_capacity(32);
        self.push_path(i, &mut out);
        out
    }

    fn push_path(&self, i: usize, out: &mut String) {
        let Some(r) = self.records.get(i) else { return };
        // Parents come before their records: the walk up always ends.
        if r.parent < i as u32 {
            self.push_path(r.parent as usize, out);
        }
        let a = i.checked_sub(1).and_then(|b| self.records.get(b)).map_or(0, |b| b.ends.path);
        out.push_str(self.paths.get(a as usize..r.ends.path as usize).unwrap_or(""));
    }
}
