//! [`push`]: one value at a time. Once the heap is full, a value that cannot beat the root
//! costs two comparisons against a [`Gate`] kept beside the heap (the stream's end and a copy
//! of the root's value) and no call; the rest goes to a cold path that checks and offers it.
//! `push` cannot look ahead: on a rising stream every value enters, O(log k) each.

use core::num::NonZeroU64;
use core::slice;

use crate::check::{check_values, MAX_STREAM_LEN};
use crate::heap::{offer, peek_worst, Storage};
use crate::{Entry, Error, TotalRank};

/// What a streaming selector keeps next to its heap so that [`push`] can turn a value away
/// with no look at the heap: `None` until the heap is full, then the root's value as it was
/// when [`push_slow`] last saw it, and the stream's end.
///
/// It never turns away a value that the heap would take. A full heap never shrinks and its
/// root only rises (push, extend, merge), so a kept root is never above the real one; only
/// `clear` empties the heap, and it closes the gate. Selectors start with it closed.
pub(crate) type Gate<T> = Option<OpenGate<T>>;

/// An open [`Gate`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct OpenGate<T> {
    /// [`MAX_STREAM_LEN`]: a position below it may take the shortcut. A field, not the
    /// constant, so that it is also the `Option`'s tag: `at < until` tests both.
    until: NonZeroU64,
    /// The root's value, at or below the real root's.
    root: T,
}

/// Offers one value at stream position `*next`, as [`extend`](crate::extend::extend) on a slice of
/// one would, with the common case first: once the heap is full, a value that does not beat the
/// root ([`TotalRank::may_enter_above`], which also catches NaN) costs two comparisons, with the
/// stream's end and the root's value kept in `gate`, and no call.
///
/// Written for the loop a compiler makes of `for &v in x { top.push(v)? }`, with the gate's
/// end and root in registers (docs/DESIGN.md has the loop as compiled). Two choices give it
/// that shape:
/// - The slow paths return the new gate instead of writing it through a pointer, so that the
///   gate stays in registers across the loop instead of being read from memory at each value.
/// - Each failing test has its own cold slow path: [`push_closed`] for a closed gate or the
///   stream's end, [`push_slow`] for a value that may enter. With one path the compiler
///   merged the two outcomes into a flag and tested it again; without `#[cold]` it put the
///   loop's exit test first, behind a six-byte branch.
#[inline]
pub(crate) fn push<S: Storage>(
    heap: &mut S,
    gate: &mut Gate<S::Value>,
    next: &mut u64,
    value: S::Value,
) -> Result<(), Error> {
    let at = *next;
    match gate {
        Some(open) if at < open.until.get() => {
            if !value.may_enter_above(&open.root) {
                *next = at + 1;
                return Ok(());
            }
            *gate = push_slow(heap, at, value)?;
        }
        _ => *gate = push_closed(heap, at, value)?,
    }
    *next = at + 1;
    Ok(())
}

/// The rest of [`push`] for a value that may beat the root, and (through [`push_closed`])
/// for every value while the gate is closed: offers it and returns the gate for what follows
/// (open once the heap is full). Never inlined, so that the common case stays small in the
/// caller's loop. It gets the position by value, so that the loop keeps the position in a
/// register (it still stores it at each value: the call can see the selector).
#[cold]
#[inline(never)]
fn push_slow<S: Storage>(heap: &mut S, at: u64, value: S::Value) -> Result<Gate<S::Value>, Error> {
    check_values(at, slice::from_ref(&value))?;
    // Checked: the position is below `MAX_STREAM_LEN`, the cast lossless.
    let index = at as u32;
    offer(heap, Entry { value, index });
    let full = heap.len() == heap.capacity();
    Ok(peek_worst(heap).filter(|_| full).map(|root| OpenGate {
        until: STREAM_END,
        root: root.value,
    }))
}

/// [`push_slow`] for a closed gate (the heap not yet full) or a position at the stream's end.
/// A call site of its own, so that the caller's loop branches straight to the one or the
/// other and does not merge the two tests' outcomes (see [`push`]).
#[cold]
#[inline(never)]
fn push_closed<S: Storage>(
    heap: &mut S,
    at: u64,
    value: S::Value,
) -> Result<Gate<S::Value>, Error> {
    push_slow(heap, at, value)
}

/// [`MAX_STREAM_LEN`], as the gate keeps it.
const STREAM_END: NonZeroU64 = NonZeroU64::MIN.saturating_add(MAX_STREAM_LEN - 1);
const _: () = assert!(STREAM_END.get() == MAX_STREAM_LEN);
