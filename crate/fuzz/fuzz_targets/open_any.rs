//! Any bytes, any name: detection, decoding, the summary and a window of spans never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let doc = meshscope::open("fuzz.bin", data.to_vec());
    let _ = doc.summary();
    let _ = doc.spans_in(0, 4096);
    let _ = doc.rewrite();
});
