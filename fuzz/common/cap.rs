//! The allocation cap every target runs under, enforced by the target itself.
//!
//! libFuzzer's `-malloc_limit_mb` only works with a sanitizer's allocator; the targets are
//! safe Rust, so long campaigns run without AddressSanitizer (several times faster) and keep
//! the cap here instead: one allocation above [`CAP`] aborts the run, which libFuzzer reports
//! as a crash and saves as an artifact.
use std::alloc::{GlobalAlloc, Layout, System};

/// The largest single allocation a parser may make on any input (RELIABILITY.md, "Fuzzing").
pub const CAP: usize = 256 << 20;

pub struct Capped;

// SAFETY: every call is passed to `System` unchanged; only the size is looked at first.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        check(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        check(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

fn check(size: usize) {
    if size > CAP {
        // No allocation may happen here (we are inside the allocator): write and abort.
        let msg = b"==allocation over the cap (256 MB)==\n";
        // SAFETY: writing a static buffer to stderr.
        unsafe { libc_write(2, msg.as_ptr(), msg.len()) };
        std::process::abort();
    }
}

extern "C" {
    #[link_name = "write"]
    fn libc_write(fd: i32, buf: *const u8, count: usize) -> isize;
}

#[global_allocator]
static GLOBAL: Capped = Capped;
