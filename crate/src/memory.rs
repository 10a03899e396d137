//! How the native command line asks glibc to keep memory. By default glibc returns large
//! freed blocks straight to the kernel and trims a heap as soon as its top is free, so a
//! program that decodes file after file takes fresh pages (a page fault each) again and
//! again; the page's wasm memory is never returned in the first place. The benchmarks call
//! this too, so their figures are the command line's (docs/performance.md).

/// Keeps freed memory in the process: blocks up to 32 MB come from its heaps, which are
/// never trimmed. Elsewhere than glibc on Linux it does nothing.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn keep_freed_memory() {
    extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_TRIM_THRESHOLD: i32 = -1;
    const M_MMAP_THRESHOLD: i32 = -3;
    // SAFETY: mallopt only sets two of glibc's allocation thresholds (32 MB is the largest
    // mmap threshold it takes); it is called before any other thread starts.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, i32::MAX);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn keep_freed_memory() {}
