//! Every public API of the crate, on inputs the optimizer cannot see through, for the
//! link-time proof that no panic can be reached: the panic handler (in the library) calls a
//! function that is defined nowhere, so the link fails if any call below keeps a path to a
//! panic. `scripts/no_panic.sh` builds it for both footprints at opt-level "s" and 3.
#![no_std]
#![no_main]

use core::cmp::{Ordering, Reverse};
use core::fmt::{self, Write};
use core::hint::black_box;

use tinytopk::{bottom_k_into, top_k_into, top_k_rows, Entry, Error, SliceTopK, TopK, TotalRank};
use tinytopk_size::{keep, run};

/// A sink for `Display`, counting the bytes written.
struct Count(usize);

impl Write for Count {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = self.0.wrapping_add(s.len());
        Ok(())
    }
}

/// A value type outside the crate: the trait's default methods.
#[derive(Clone, Copy)]
struct Score(i16);

impl TotalRank for Score {
    fn is_rankable(&self) -> bool {
        self.0 != i16::MIN
    }
    fn rank_cmp(&self, other: &Self) -> Ordering {
        self.0.cmp(&other.0)
    }
}

/// Every API over the value type `T`, with a runtime k and runtime lengths.
fn every_api<T: TotalRank>(x: &[T], fill: T) {
    let k = black_box(x.len() / 3).min(16);
    let (mut idx, mut val) = ([0_u32; 16], [fill; 16]);
    let (Some(idx), Some(val)) = (idx.get_mut(..k), val.get_mut(..k)) else {
        return;
    };
    keep(top_k_into(x, idx, val));
    keep(bottom_k_into(x, idx, val));
    let n = black_box(7);
    keep(top_k_rows(x, n, idx, val));

    let mut top = TopK::<T, 16>::new();
    keep(top.push(x.first().copied().unwrap_or(fill)));
    keep(top.extend_from_slice(x));
    keep((top.len(), top.is_empty(), top.capacity(), top.stream_len()));
    keep(top.peek_worst());
    let mut other = TopK::<T, 16>::with_offset(black_box(1000));
    keep(other.extend_from_slice(x));
    keep(top.merge(&other));
    let entries = [Entry {
        value: fill,
        index: black_box(3),
    }; 2];
    keep(top.merge_entries(&entries, black_box(2000)));
    keep(top.try_extend(x.iter().copied()));
    keep(top.sorted().as_slice().first().copied());
    keep(top.iter().next());
    keep(top.iter_sorted().next());
    keep((&top).into_iter().next());
    keep(top.clone().into_iter().next());
    keep(top.clone().into_sorted());
    top.clear();
    keep(TopK::<T, 16>::default().into_sorted());

    let (mut idx2, mut val2) = ([0_u32; 16], [fill; 16]);
    let k2 = black_box(k + 1).min(16);
    let (Some(idx2), Some(val2)) = (idx2.get_mut(..k2), val2.get_mut(..k)) else {
        return;
    };
    if let Ok(mut slice) = SliceTopK::new(idx2, val2) {
        keep(slice.push(fill));
        keep(slice.extend_from_slice(x));
        keep((
            slice.len(),
            slice.is_empty(),
            slice.capacity(),
            slice.stream_len(),
        ));
        keep(slice.peek_worst());
        keep(slice.merge_entries(&entries, black_box(2000)));
        keep(slice.try_extend(x.iter().copied()));
        keep(slice.iter_sorted().next());
        let (mut idx3, mut val3) = ([0_u32; 16], [fill; 16]);
        let (Some(idx3), Some(val3)) = (idx3.get_mut(..k), val3.get_mut(..k)) else {
            return;
        };
        if let Ok(mut shard) = SliceTopK::with_offset(idx3, val3, 500) {
            keep(shard.extend_from_slice(x));
            keep(slice.merge(&shard));
        }
        keep(slice.into_sorted());
    }

    let (a, b) = (
        Entry {
            value: fill,
            index: 1,
        },
        Entry {
            value: fill,
            index: 2,
        },
    );
    keep((a.rank_cmp(&b), a.ranks_below(&b)));
    keep(<(u32, T)>::from(Entry::new(fill, black_box(4))));
    keep((
        fill.is_rankable(),
        fill.rank_cmp(&fill),
        fill.may_enter_above(&fill),
    ));
    keep(T::rank_midpoint(&fill, &fill).is_some());
}

#[cortex_m_rt::entry]
fn main() -> ! {
    run(|x, idx, val| {
        keep(top_k_into(x, idx, val));
        every_api(x, 0.0_f32);
        let wide = black_box([1.0_f64; 64]);
        every_api(&wide, 0.0_f64);
        let ints = black_box([3_i32; 64]);
        every_api(&ints, 0_i32);
        let bytes = black_box([3_u8; 64]);
        every_api(&bytes, 0_u8);
        let smallest = black_box([Reverse(2.0_f32); 64]);
        every_api(&smallest, Reverse(0.0_f32));
        let scores = black_box([Score(5); 64]);
        every_api(&scores, Score(0));
        // Display of every error.
        let mut sink = Count(0);
        for error in [
            Error::NotRankable {
                index: black_box(1),
            },
            Error::KTooLarge {
                k: black_box(2),
                n: 1,
            },
            Error::LengthMismatch { idx: 1, val: 2 },
            Error::TooLong {
                n: black_box(usize::MAX),
            },
            Error::DuplicateIndex {
                index: black_box(4),
            },
            Error::IndexBeyondStream {
                index: 5,
                stream_len: black_box(3),
            },
            Error::NotRows {
                len: black_box(7),
                n: 2,
                out: 3,
            },
        ] {
            keep(write!(sink, "{error}"));
        }
        keep(sink.0);
        // The proof's own check: an index the optimizer cannot bound must fail the link.
        #[cfg(feature = "panic-on-purpose")]
        keep(x[black_box(usize::MAX)]);
    })
}
