//! How the native command line asks glibc to keep memory. By default glibc returns a freed
//! block of over 128 KB (and, as it adapts, up to 32 MB) straight to the kernel, and trims a
//! heap as soon as its top is free: a program that decodes file after file then takes fresh
//! pages, and a page fault for each 4 KB of them, again and again. A second thread's heap
//! suffered most: the first census on two threads of a process ran at 6.8 s for 48,000
//! MeshSets against 4.6 s for the next. Keeping freed memory in the process removes that;
//! the page's wasm memory is kept the same way by nature. The benchmarks call this too, as
//! the command line does, so their figures are the command line's.

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
