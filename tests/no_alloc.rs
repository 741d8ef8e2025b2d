//! No path allocates: a counting global allocator sees zero allocations during `top_k_into`,
//! `push`, `extend_from_slice` and `into_sorted`, on a vocabulary-sized row (long enough for
//! the one-pass and the two-pass paths, the pre-filter and the run-time dispatch).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "../examples/data/mod.rs"]
mod data;

use tinytopk::{top_k_into, SliceTopK, TopK};

/// The system allocator, counting every allocation.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the caller's contract for `alloc`, passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// How many allocations `job` makes.
fn allocations(job: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    job();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

#[test]
fn no_path_allocates() {
    let n = if cfg!(miri) { 600 } else { 151_936 };
    let rows = [
        data::normal_logits(n, 7),
        (0..n).map(|i| i as f32).collect::<Vec<f32>>(),
    ];
    // k = 40 takes the one-pass path, k = 100 the two-pass one.
    let (mut idx, mut val) = (vec![0_u32; 100], vec![0.0_f32; 100]);
    for x in &rows {
        for k in [1, 40, 100] {
            let (idx, val) = (&mut idx[..k], &mut val[..k]);
            assert_eq!(allocations(|| top_k_into(x, idx, val).unwrap()), 0);

            let count = allocations(|| {
                let mut top = SliceTopK::new(idx, val).unwrap();
                top.extend_from_slice(&x[..n / 2]).unwrap();
                for &v in &x[n / 2..] {
                    top.push(v).unwrap();
                }
                std::hint::black_box(top.into_sorted());
            });
            assert_eq!(count, 0, "SliceTopK, k = {k}");
        }
        let count = allocations(|| {
            let mut top = TopK::<f32, 40>::new();
            top.extend_from_slice(&x[..n / 2]).unwrap();
            for &v in &x[n / 2..] {
                top.push(v).unwrap();
            }
            std::hint::black_box(top.into_sorted());
        });
        assert_eq!(count, 0, "TopK");
        // An error path does not allocate either.
        let mut bad = x.clone();
        bad[n - 1] = f32::NAN;
        let count = allocations(|| {
            assert!(top_k_into(&bad, &mut idx[..40], &mut val[..40]).is_err());
            assert!(TopK::<f32, 40>::new().extend_from_slice(&bad).is_err());
        });
        assert_eq!(count, 0, "errors");
    }
}
