//! [`Error`]: why a call was rejected. A rejected call has written nothing.

use core::fmt;

/// Why a call was rejected. Whatever the error, the call wrote nothing: caller buffers and
/// selector state are as they were before it.
///
/// Every position it names (`index`) is a `usize`, as a slice position is, whether it comes
/// from a slice, a stream or an [`Entry`](crate::Entry)'s `u32` index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The value at this position of the stream has no place in the order (a NaN). It is the
    /// first such position.
    NotRankable {
        /// Position of the first unrankable value, counted from the start of the stream.
        index: usize,
    },
    /// More entries were asked for than the input has.
    KTooLarge {
        /// How many entries were asked for.
        k: usize,
        /// How many values the input has.
        n: usize,
    },
    /// The index and value buffers differ in length.
    LengthMismatch {
        /// Length of the index buffer.
        idx: usize,
        /// Length of the value buffer.
        val: usize,
    },
    /// The stream would grow past `u32::MAX + 1` values, the most that `u32` indices can name.
    TooLong {
        /// The length the stream would have had (saturated at `usize::MAX`).
        n: usize,
    },
    /// A merged or deserialized entry repeats the index of another entry: the two parts
    /// overlapped, so the union is not a stream.
    DuplicateIndex {
        /// The index that came twice.
        index: usize,
    },
    /// A merged or deserialized entry has an index at or past the stream length it came with.
    IndexBeyondStream {
        /// The entry's index.
        index: usize,
        /// The stream length it came with.
        stream_len: u64,
    },
    /// A batch is not `rows × n` values with `rows × k` outputs: `len` is not a multiple of
    /// `n`, or the outputs (`out` places) are not a multiple of the rows.
    NotRows {
        /// How many values the batch has.
        len: usize,
        /// The row length.
        n: usize,
        /// How many places the outputs have.
        out: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::NotRankable { index } => {
                write!(
                    f,
                    "the value at index {index} has no place in the order (NaN)"
                )
            }
            Error::KTooLarge { k, n } => write!(f, "k = {k} is larger than the input (n = {n})"),
            Error::LengthMismatch { idx, val } => write!(
                f,
                "the index buffer ({idx}) and the value buffer ({val}) differ in length"
            ),
            Error::TooLong { n } => write!(
                f,
                "a stream of {n} values is longer than u32 indices can name (u32::MAX + 1)"
            ),
            Error::DuplicateIndex { index } => {
                write!(f, "index {index} comes twice: the merged parts overlap")
            }
            Error::IndexBeyondStream { index, stream_len } => write!(
                f,
                "index {index} is not below the stream length {stream_len} it came with"
            ),
            Error::NotRows { len, n, out } => write!(
                f,
                "{len} values are not rows of {n} with {out} output places a multiple of the rows"
            ),
        }
    }
}

impl core::error::Error for Error {}
