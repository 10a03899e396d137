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
pub use native::MiMalloc;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use libmimalloc_sys as mi;
    use std::alloc::{GlobalAlloc, Layout};
    use std::ffi::c_void;

    /// Every mimalloc block is aligned to a word at least, so a layout of that alignment
    /// takes the plain calls; the `mimalloc` crate's always take the aligned ones, which
    /// cost more a call (docs/performance.md).
    const WORD: usize = std::mem::size_of::<usize>();

    /// mimalloc as the global allocator.
    pub struct MiMalloc;

    /// A block for `layout` from `plain` (given the size) when a word's alignment serves,
    /// else from `aligned` (given the size and the alignment).
    #[inline(always)]
    unsafe fn block(
        layout: Layout,
        plain: unsafe extern "C" fn(usize) -> *mut c_void,
        aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
    ) -> *mut u8 {
        // SAFETY: both are mimalloc's allocation calls, which take any size and alignment.
        unsafe {
            if layout.align() <= WORD {
                plain(layout.size()).cast()
            } else {
                aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    // SAFETY: each call hands mimalloc's own block back to mimalloc, and a block returned
    // for `layout` is aligned to `layout.align()`: by the word or by the aligned call.
    unsafe impl GlobalAlloc for MiMalloc {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            unsafe { block(layout, mi::mi_malloc, mi::mi_malloc_aligned) }
        }

        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            unsafe { block(layout, mi::mi_zalloc, mi::mi_zalloc_aligned) }
        }

        #[inline]
        unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
            unsafe { mi::mi_free(ptr.cast::<c_void>()) }
        }

        #[inline]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            if layout.align() <= WORD {
                unsafe { mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast() }
            } else {
                unsafe { mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast() }
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::MiMalloc;
    use std::alloc::{GlobalAlloc, Layout};

    /// Every block comes aligned as its layout asks, through the plain calls and the aligned
    /// ones, and keeps its bytes when it grows.
    #[test]
    fn blocks_are_aligned_as_asked_and_keep_their_bytes() {
        let mut blocks = Vec::new();
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 24, 40, 56, 100, 1000, 70_000] {
                let layout = Layout::from_size_align(size, align).expect("a valid layout");
                for zeroed in [false, true] {
                    // SAFETY: the layout has a size; each block is freed once, below.
                    let p = unsafe {
                        if zeroed {
                            MiMalloc.alloc_zeroed(layout)
                        } else {
                            MiMalloc.alloc(layout)
                        }
                    };
                    assert!(!p.is_null(), "{size} bytes aligned to {align}");
                    assert_eq!(p as usize % align, 0, "{size} bytes aligned to {align}");
                    // SAFETY: the block holds `size` bytes.
                    let bytes = unsafe { std::slice::from_raw_parts_mut(p, size) };
                    if zeroed {
                        assert!(bytes.iter().all(|&b| b == 0), "{size} zeroed bytes aligned to {align}");
                    }
                    bytes.iter_mut().enumerate().for_each(|(i, b)| *b = i as u8);
                    blocks.push((p, layout));
                }
            }
        }
        for (p, layout) in blocks {
            let size = layout.size();
            // SAFETY: `p` is this allocator's block of `layout`; the grown one is freed with
            // the layout it now has.
            unsafe {
                let q = MiMalloc.realloc(p, layout, size * 3);
                assert_eq!(q as usize % layout.align(), 0, "{size} bytes grown, aligned to {}", layout.align());
                let kept = std::slice::from_raw_parts(q, size);
                assert!(kept.iter().enumerate().all(|(i, &b)| b == i as u8), "{size} bytes kept when grown");
                MiMalloc.dealloc(q, Layout::from_size_align_unchecked(size * 3, layout.align()));
            }
        }
    }
}
