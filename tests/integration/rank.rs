//! The value order of the built-in `TotalRank` impls and the entry order built on it.

use crate::common;

use core::cmp::Ordering;

use common::{ieee_order, Value, F32_POOL};
use proptest::prelude::*;
use tinytopk::{Entry, TotalRank};

/// IEEE order by the bits (`total_cmp`) except that the two zeros tie: a definition apart from
/// the comparison operators, which the crate and the oracle's [`ieee_order`] both use.
fn ieee_f32(a: f32, b: f32) -> Ordering {
    if a == 0.0 && b == 0.0 {
        Ordering::Equal
    } else {
        a.total_cmp(&b)
    }
}

/// Every pair of the type's edge values ranks by IEEE order.
fn edges_rank_by_ieee<T: Value>() {
    for a in T::edges() {
        assert!(a.is_rankable(), "{a:?}");
        for b in T::edges() {
            assert_eq!(a.rank_cmp(&b), ieee_order(&a, &b), "{a:?} vs {b:?}");
        }
    }
}

#[test]
fn floats_rank_by_ieee_and_zeros_tie() {
    for &a in &F32_POOL {
        assert!(a.is_rankable());
        for &b in &F32_POOL {
            assert_eq!(a.rank_cmp(&b), ieee_f32(a, b), "{a:?} vs {b:?}");
            assert_eq!(ieee_order(&a, &b), ieee_f32(a, b), "the oracle's order");
            assert_eq!(
                f64::from(a).rank_cmp(&f64::from(b)),
                ieee_f32(a, b),
                "{a:?} vs {b:?} as f64"
            );
        }
    }
    edges_rank_by_ieee::<f32>();
    edges_rank_by_ieee::<f64>();
    assert_eq!((-0.0_f32).rank_cmp(&0.0), Ordering::Equal);
    assert_eq!((-0.0_f64).rank_cmp(&0.0), Ordering::Equal);
    assert_eq!(f32::NEG_INFINITY.rank_cmp(&f32::MIN), Ordering::Less);
}

/// Every NaN of the type's list is unrankable, and every edge value (infinities, extremes,
/// subnormals) is rankable.
fn nans_are_unrankable<T: Value>() {
    for nan in T::nans() {
        assert!(!nan.is_rankable(), "{:#x}", nan.bits());
    }
    for v in T::edges() {
        assert!(v.is_rankable(), "{v:?}");
    }
}

#[test]
fn every_nan_is_unrankable_and_infinities_are_not() {
    nans_are_unrankable::<f32>();
    nans_are_unrankable::<f64>();
    for bits in common::NAN_BITS {
        // A NaN widened to f64 is still a NaN.
        assert!(!f64::from(f32::from_bits(bits)).is_rankable(), "{bits:#x}");
    }
    for v in F32_POOL {
        assert!(f64::from(v).is_rankable());
    }
}

#[test]
fn entries_tie_break_by_lower_index() {
    let a = Entry {
        value: 1.0_f32,
        index: 4,
    };
    let b = Entry {
        value: 1.0_f32,
        index: 9,
    };
    let c = Entry {
        value: 2.0_f32,
        index: 20,
    };
    assert_eq!(b.rank_cmp(&a), Ordering::Less);
    assert_eq!(a.rank_cmp(&b), Ordering::Greater);
    assert_eq!(a.rank_cmp(&a), Ordering::Equal);
    assert!(b.ranks_below(&a) && !a.ranks_below(&b));
    assert!(a.ranks_below(&c) && b.ranks_below(&c));
    // -0.0 and 0.0 tie as values, so the index decides.
    let neg = Entry {
        value: -0.0_f32,
        index: 1,
    };
    let pos = Entry {
        value: 0.0_f32,
        index: 2,
    };
    assert!(pos.ranks_below(&neg));
}

proptest! {
    #![proptest_config(common::proptest_config())]

    #[test]
    fn integers_rank_as_ord(a in any::<i64>(), b in any::<i64>(), c in any::<u8>(), d in any::<u8>()) {
        prop_assert_eq!(a.rank_cmp(&b), a.cmp(&b));
        prop_assert_eq!(c.rank_cmp(&d), c.cmp(&d));
        prop_assert!(a.is_rankable() && c.is_rankable());
    }

    #[test]
    fn f32_ranks_as_ieee(a in any::<f32>(), b in any::<f32>()) {
        prop_assert_eq!(a.is_rankable(), !a.is_nan());
        if !a.is_nan() && !b.is_nan() {
            prop_assert_eq!(a.rank_cmp(&b), ieee_f32(a, b));
            prop_assert_eq!(ieee_order(&a, &b), ieee_f32(a, b));
        }
    }

    /// The entry order is a total order: antisymmetric, and transitive on random triples.
    #[test]
    fn entry_order_is_total(
        v in prop::collection::vec(prop::sample::select(F32_POOL.to_vec()), 3),
        i in prop::collection::vec(0_u32..4, 3),
    ) {
        let e: Vec<Entry<f32>> = v.iter().zip(&i).map(|(&value, &index)| Entry { value, index }).collect();
        for x in &e {
            for y in &e {
                prop_assert_eq!(x.rank_cmp(y), y.rank_cmp(x).reverse());
                if x.index != y.index {
                    prop_assert_ne!(x.rank_cmp(y), Ordering::Equal);
                }
                for z in &e {
                    if x.ranks_below(y) && y.ranks_below(z) {
                        prop_assert!(x.ranks_below(z));
                    }
                }
            }
        }
    }
}
