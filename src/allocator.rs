//! The process's allocator (the server, the CLI and the service bench): mimalloc, called
//! without its alignment wrapper when the alignment asked is one every mimalloc block has.
//!
//! The `mimalloc` crate's allocator calls `mi_malloc_aligned` for every allocation. Its
//! check of the alignment costs more than the small-block allocation itself, and a small
//! request makes thousands of allocations (a `String` per id of every game, a step per line
//! of the explanation; issue 37). Alignments up to a word are what nearly every Rust type
//! asks, and mimalloc gives them to every block: its size classes are multiples of the word
//! and a page's first block is aligned to 16 bytes (`MI_PAGE_MIN_START_BLOCK_ALIGN` in its
//! `types.h`). Larger alignments keep the aligned calls.
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// mimalloc as a Rust global allocator; see the module docs.
pub struct Allocator;

/// The alignment every mimalloc block has (a word on 64-bit targets).
const BLOCK_ALIGN: usize = std::mem::size_of::<usize>();

// SAFETY: every pointer comes from mimalloc and goes back to it (`mi_free` takes blocks of
// the plain and the aligned calls alike); the plain calls serve only alignments every block
// satisfies (module docs), and the choice depends on the layout's alignment alone, which is
// the same for a block's allocation, reallocation and release.
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation calls take any size and a power-of-two alignment.
        unsafe {
            if layout.align() <= BLOCK_ALIGN {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if layout.align() <= BLOCK_ALIGN {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator (the caller's contract).
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` was allocated by this allocator with `layout` (the caller's
        // contract); the alignment decides the call as in `alloc`.
        unsafe {
            if layout.align() <= BLOCK_ALIGN {
                mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every size class up to a few pages, at the word's alignment and above,
    /// come back aligned, keep their bytes through reallocation, and zeroed when asked.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let a = Allocator;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (1..=300).chain([511, 512, 1000, 4096, 70_000]) {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: a non-zero size; every block is freed with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size}, align {align}");
                    std::ptr::write_bytes(p, 0xA5, size);
                    let grown = a.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "realloc {size}, align {align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xA5));
                    a.dealloc(grown, Layout::from_size_align_unchecked(size * 3, align));
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
