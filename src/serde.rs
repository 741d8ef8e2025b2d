//! `Serialize` and `Deserialize` for [`TopK`] (feature `serde`; [`Entry`] derives both), so
//! that a partial top k crosses a process or machine boundary and merges on arrival
//! ([`TopK::merge`]).
//!
//! A selector is written as its stream length and its kept entries, best first:
//! `{"stream_len": 5, "entries": [{"value": 3.0, "index": 1}, …]}`. Reading it back checks
//! everything and rebuilds the heap through the normal merge path, so a corrupt or hostile
//! input is an error, never a broken selector: more than `K` entries, entries not strictly best
//! first, a NaN, an index at or past `stream_len` or given twice, a `stream_len` past
//! `u32::MAX + 1`, or an unknown field.

use core::fmt;
use core::marker::PhantomData;

use ::serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use ::serde::ser::{Serialize, Serializer};
use arrayvec::ArrayVec;

use crate::{Entry, TopK, TotalRank};

/// What a [`TopK`] is written as.
#[derive(::serde::Serialize)]
#[serde(rename = "TopK")]
struct Written<'a, T> {
    stream_len: u64,
    entries: &'a [Entry<T>],
}

/// What a [`TopK`] is read from, before it is checked.
#[derive(::serde::Deserialize)]
#[serde(rename = "TopK", deny_unknown_fields)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
struct Read<T, const K: usize> {
    stream_len: u64,
    entries: AtMost<T, K>,
}

/// At most `K` entries: a longer sequence is an error, found at its `K + 1`-th element.
struct AtMost<T, const K: usize>(ArrayVec<Entry<T>, K>);

impl<'de, T: Deserialize<'de>, const K: usize> Deserialize<'de> for AtMost<T, K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries<T, const K: usize>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>, const K: usize> Visitor<'de> for Entries<T, K> {
            type Value = AtMost<T, K>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "at most {K} entries")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut kept = ArrayVec::new();
                while let Some(entry) = seq.next_element()? {
                    kept.try_push(entry)
                        .map_err(|_| de::Error::invalid_length(K + 1, &self))?;
                }
                Ok(AtMost(kept))
            }
        }

        deserializer.deserialize_seq(Entries(PhantomData))
    }
}

/// Written as `{"stream_len", "entries"}`, the entries best first.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<T: TotalRank + Serialize, const K: usize> Serialize for TopK<T, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sorted = self.clone().into_sorted();
        Written {
            stream_len: self.stream_len(),
            entries: &sorted,
        }
        .serialize(serializer)
    }
}

/// Read back with every check of [`TopK::merge_entries`], and the entries strictly best first.
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
impl<'de, T: TotalRank + Deserialize<'de>, const K: usize> Deserialize<'de> for TopK<T, K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let Read {
            stream_len,
            entries: AtMost(entries),
        } = Read::<T, K>::deserialize(deserializer)?;
        let mut top = TopK::new();
        // Rankable, in range, no index twice (and `stream_len` within u32 indices).
        top.merge_entries(&entries, stream_len)
            .map_err(de::Error::custom)?;
        // Now every value is rankable, so the order may be asked: strictly best first.
        if let Some(pair) = entries.windows(2).find(|w| !w[1].ranks_below(&w[0])) {
            return Err(de::Error::custom(format_args!(
                "entries are not best first: index {} before index {}",
                pair[0].index, pair[1].index
            )));
        }
        Ok(top)
    }
}
