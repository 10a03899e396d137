//! The native programs' allocator: mimalloc, for the command line and each benchmark (the
//! library leaves the choice to its programs, and the page's wasm keeps Rust's own).
//!
//! Opening a small file makes and frees a few dozen blocks (paths, names, lists), on which
//! glibc's malloc spent about a fifth of `open`'s instructions (docs/performance.md). And
//! mimalloc keeps freed memory for a second before it returns it to the kernel, so a program
//! that decodes file after file reuses its pages, as the page's wasm memory is reused: glibc
//! needed its trim and mmap thresholds raised for that.

/// Makes mimalloc the allocator of the program whose crate root calls it.
#[macro_export]
macro_rules! native_allocator {
    () => {
        #[cfg(not(target_arch = "wasm32"))]
        #[global_allocator]
        static ALLOCATOR: $crate::memory::MiMalloc = $crate::memory::MiMalloc;
    };
}

#[cfg(not(target_arch = "wasm32"))]
pub use mimalloc::MiMalloc;
