//! The page's census hands plans over between wasm instances as bytes (`census/handover.rs`).
//! The first four bytes (little-endian) say how many of the rest are plans; the others are the
//! files' bytes. The plans are held and counted as the census worker does, twice over (the
//! second time meets the kinds of the first). Nothing may panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use meshscope::census::handover::Held;

fuzz_target!(|data: &[u8]| {
    let Some((head, rest)) = data.split_first_chunk::<4>() else { return };
    let split = (u32::from_le_bytes(*head) as usize).min(rest.len());
    let (plans, bytes) = rest.split_at(split);
    let mut held = Held::new();
    let mut first = 0;
    for planner in [1, 1] {
        match held.hold_plans(first, plans, bytes, planner) {
            Ok(n) => first += n,
            Err(_) => break,
        }
        assert_eq!(held.count_ready(first), first, "every file held is counted");
    }
    let report = held.census.report(50);
    assert_eq!(report.files + report.skipped, first as u64, "each file is counted or skipped");
});
