//! Parity with the Python reference: every row of the shared fixture files (fixtures/*.txt,
//! written by fixtures/reference.py, format in fixtures/FORMAT.md) through every API.
//!
//! For a row with k >= 0 the expected outcome (ids and value bits, or an error) is checked
//! against the test oracle and against `top_k_into`, `SliceTopK` (push, one extend, extends in
//! chunks) and `TopK` (push, one extend; a compile-time K for every k the files use).
//! The streaming selectors keep what they are given and have no `k > n` error, so a
//! `k_too_large` row runs through `top_k_into` only.
//!
//! k < 0 cannot be expressed in the Rust API (k is a buffer length, a `usize`): the parser's
//! conversion of such a k to `usize` is the boundary that rejects it. Those rows are checked
//! for consistency (a `k_negative` row has no NaN, since the first NaN wins) and, when the
//! reference answers `not_rankable`, run through every API with k = 0 and k = 1, since the
//! first NaN is the error whatever k is. They are there for the C ABI's signed k.
//!
//! `f16.txt` and `bf16.txt` hold rows of `half::f16` and `half::bf16` values (4 hex digits, a
//! type token in the header). With the `half` feature they run through the same checks, with
//! the values made by `from_bits`; without it their headers are still checked, their rows are
//! not read.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{oracle, via_slice_topk, via_topk, via_topk_dyn, zip_entries, Feed, Rng};
use tinytopk::{top_k_into, Entry, Error, SliceTopK, TotalRank};

/// The format version this reader understands (the first line of every file; a file of 16-bit
/// values adds its type token after it).
const HEADER: &str = "tinytopk-fixtures 1";
/// The float32 fixture files, as FORMAT.md lists them.
const F32_FILES: [&str; 4] = ["hand.txt", "errors.txt", "random.txt", "vocab.txt"];
/// Every fixture file with the header it must start with. Every `.txt` in the folder must be
/// one of them.
const FILES: [(&str, &str); 6] = [
    ("hand.txt", HEADER),
    ("errors.txt", HEADER),
    ("random.txt", HEADER),
    ("vocab.txt", HEADER),
    ("f16.txt", "tinytopk-fixtures 1 f16"),
    ("bf16.txt", "tinytopk-fixtures 1 bf16"),
];

/// A value type of the fixture files (FORMAT.md, "Value types"), made from its bits.
trait FixtureValue: TotalRank + Copy + Default + PartialOrd + core::fmt::Debug {
    /// The files of this type.
    const FILES: &'static [&'static str];
    /// Hex digits of a value token.
    const HEX_DIGITS: usize;
    /// Whether the `gen` source (float32 only) may appear.
    const GEN: bool;
    /// The bits of a rankable value the outputs are filled with, to see an error write nothing.
    const SENTINEL: u32;
    /// The value with these bits (which fit the type: the reader checked the digit count).
    fn from_bits(bits: u32) -> Self;
    fn to_bits(self) -> u32;
    /// NaN, as the IEEE type says (through f32, not through the crate's `is_rankable`).
    fn is_nan(self) -> bool;
}

impl FixtureValue for f32 {
    const FILES: &'static [&'static str] = &F32_FILES;
    const HEX_DIGITS: usize = 8;
    const GEN: bool = true;
    const SENTINEL: u32 = 0x4640_E400; // 12345.0
    fn from_bits(bits: u32) -> Self {
        f32::from_bits(bits)
    }
    fn to_bits(self) -> u32 {
        f32::to_bits(self)
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

#[cfg(feature = "half")]
macro_rules! impl_fixture_half {
    ($($t:ty => $file:literal, $sentinel:literal;)*) => {$(
        impl FixtureValue for $t {
            const FILES: &'static [&'static str] = &[$file];
            const HEX_DIGITS: usize = 4;
            const GEN: bool = false;
            const SENTINEL: u32 = $sentinel;
            fn from_bits(bits: u32) -> Self {
                <$t>::from_bits(u16::try_from(bits).expect("4 hex digits"))
            }
            fn to_bits(self) -> u32 {
                <$t>::to_bits(self).into()
            }
            fn is_nan(self) -> bool {
                self.to_f32().is_nan()
            }
        }
    )*};
}

#[cfg(feature = "half")]
impl_fixture_half! {
    half::f16 => "f16.txt", 0x7206; // 12336.0
    half::bf16 => "bf16.txt", 0x4641; // 12352.0
}

/// What the reference answered for a row.
#[derive(Clone, Debug, PartialEq)]
enum Expected {
    /// The kept (id, value bits), best first.
    Kept(Vec<(u32, u32)>),
    NotRankable {
        index: usize,
    },
    KTooLarge {
        k: usize,
        n: usize,
    },
    KNegative {
        k: i64,
    },
}

#[derive(Debug)]
struct Row<T> {
    /// `file:name`, for messages.
    name: String,
    k: i64,
    x: Vec<T>,
    expected: Expected,
}

// --- the `gen` source of FORMAT.md -----------------------------------------------------------

/// The rare values of a `gen` row, picked by 4 bits (FORMAT.md, "The generator").
const GEN_SPECIAL: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x0080_0000,
    0x8080_0000,
    0x0000_0001,
    0x8000_0001,
    0x007F_FFFF,
    0x807F_FFFF,
    0x3F80_0000,
    0xBF80_0000,
    0x4200_0000,
    0xC200_0000,
];
/// A level q is the value (q - levels / 2) / 64, exact in f32.
const GEN_SCALE: f32 = 64.0;

/// The `gen` row: `n` values from splitmix64(`seed`) with `levels` quantized levels.
fn gen_row(n: usize, seed: u64, levels: u64) -> Vec<f32> {
    assert!((1..=1 << 24).contains(&levels), "levels = {levels}");
    let half = (levels / 2) as i64;
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let r = rng.next_u64();
            let m = r & 0xFFFF;
            if m < 0x1000 {
                f32::NEG_INFINITY
            } else if m < 0x1010 {
                f32::from_bits(GEN_SPECIAL[(m - 0x1000) as usize])
            } else {
                let q = ((r >> 32) % levels) as i64;
                // |q - half| < 2^24: the conversion and the division by 64 are exact.
                (q - half) as f32 / GEN_SCALE
            }
        })
        .collect()
}

// --- the reader ------------------------------------------------------------------------------

/// The whitespace-separated tokens of one row line, with the row's name for messages.
struct Tokens<'a> {
    it: std::str::SplitAsciiWhitespace<'a>,
    row: String,
}

impl<'a> Tokens<'a> {
    fn word(&mut self) -> &'a str {
        let row = &self.row;
        self.it
            .next()
            .unwrap_or_else(|| panic!("{row}: the line ends early"))
    }

    fn int<N: std::str::FromStr>(&mut self) -> N {
        let t = self.word();
        t.parse()
            .unwrap_or_else(|_| panic!("{}: not a decimal number: {t:?}", self.row))
    }

    /// The bits of a value: exactly `T::HEX_DIGITS` hex digits.
    fn value<T: FixtureValue>(&mut self) -> u32 {
        let t = self.word();
        let digits = T::HEX_DIGITS;
        assert_eq!(
            t.len(),
            digits,
            "{}: not {digits} hex digits: {t:?}",
            self.row
        );
        u32::from_str_radix(t, 16).unwrap_or_else(|_| panic!("{}: bad hex {t:?}", self.row))
    }
}

fn parse_row<T: FixtureValue>(file: &str, line: &str) -> Row<T> {
    let mut t = Tokens {
        it: line.split_ascii_whitespace(),
        row: format!("{file}: {}", &line[..line.len().min(60)]),
    };
    let first = t.word();
    assert_eq!(first, "row", "{}: a row line starts with `row`", t.row);
    let name = format!("{file}:{}", t.word());
    t.row.clone_from(&name);
    let k: i64 = t.int();
    let source = t.word();
    let n: usize = t.int();
    let x = match source {
        "x" => (0..n).map(|_| T::from_bits(t.value::<T>())).collect(),
        "gen" if T::GEN => {
            let seed = u64::from_str_radix(t.word(), 16).expect("seed: 16 hex digits");
            let levels: u64 = t.int();
            let mut x: Vec<T> = gen_row(n, seed, levels)
                .into_iter()
                .map(|v| T::from_bits(v.to_bits()))
                .collect();
            let patches: usize = t.int();
            for _ in 0..patches {
                let pos: usize = t.int();
                x[pos] = T::from_bits(t.value::<T>());
            }
            x
        }
        other => panic!("{name}: unknown source {other:?}"),
    };
    let expected = match t.word() {
        "ok" => {
            let m: usize = t.int();
            Expected::Kept((0..m).map(|_| (t.int(), t.value::<T>())).collect())
        }
        "err" => match t.word() {
            "not_rankable" => Expected::NotRankable { index: t.int() },
            "k_too_large" => Expected::KTooLarge {
                k: t.int(),
                n: t.int(),
            },
            "k_negative" => Expected::KNegative { k: t.int() },
            other => panic!("{name}: unknown error {other:?}"),
        },
        other => panic!("{name}: unknown outcome {other:?}"),
    };
    assert!(t.it.next().is_none(), "{name}: tokens after the outcome");
    Row {
        name,
        k,
        x,
        expected,
    }
}

fn fixtures_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The rows of the files of type `T`, each file's header checked against [`FILES`].
fn read_fixtures<T: FixtureValue>() -> Vec<Row<T>> {
    let mut rows = Vec::new();
    for &file in T::FILES {
        let (_, header) = FILES.iter().find(|(f, _)| *f == file).expect("listed");
        let text = std::fs::read_to_string(fixtures_dir().join(file)).expect(file);
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(*header),
            "{file}: header, version or type"
        );
        rows.extend(
            lines
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| parse_row::<T>(file, l)),
        );
    }
    rows
}

/// Every `.txt` in the folder is listed, and every listed file starts with its header, whether
/// or not the features this build has let its rows be read.
#[test]
#[cfg_attr(miri, ignore = "reads files")]
fn every_file_is_listed_with_its_header() {
    for entry in std::fs::read_dir(fixtures_dir()).expect("the fixtures folder") {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            !name.ends_with(".txt") || FILES.iter().any(|(f, _)| *f == name),
            "fixtures/{name} is not read by this test: add it to FILES"
        );
    }
    for (file, header) in FILES {
        let text = std::fs::read_to_string(fixtures_dir().join(file)).expect(file);
        assert_eq!(text.lines().next(), Some(header), "{file}: header");
    }
}

// --- running the APIs ------------------------------------------------------------------------

/// What an API gave, as (id, value bits) so that -0.0 and NaN payloads are told apart.
type Outcome = Result<Vec<(u32, u32)>, Error>;

fn as_bits<T: FixtureValue>(r: Result<Vec<Entry<T>>, Error>) -> Outcome {
    r.map(|v| v.iter().map(|e| (e.index, e.value.to_bits())).collect())
}

const IDX_SENTINEL: u32 = 0xDEAD_BEEF;

/// `top_k_into` on sentinel-filled buffers; on an error they must be untouched.
fn run_top_k_into<T: FixtureValue>(x: &[T], k: usize) -> Outcome {
    let mut idx = vec![IDX_SENTINEL; k];
    let mut val = vec![T::from_bits(T::SENTINEL); k];
    let r = top_k_into(x, &mut idx, &mut val);
    if r.is_err() {
        assert!(
            idx.iter().all(|&i| i == IDX_SENTINEL),
            "idx written on error"
        );
        assert!(
            val.iter().all(|v| v.to_bits() == T::SENTINEL),
            "val written on error"
        );
    }
    as_bits(r.map(|()| zip_entries(&idx, &val)))
}

/// `SliceTopK` fed by `extend_from_slice` in chunks of `chunk` values (a stream in pieces).
fn run_slice_topk_chunks<T: FixtureValue>(x: &[T], k: usize, chunk: usize) -> Outcome {
    let mut idx = vec![0_u32; k];
    let mut val = vec![T::default(); k];
    let mut top = SliceTopK::new(&mut idx, &mut val).unwrap();
    for piece in x.chunks(chunk) {
        top.extend_from_slice(piece)?;
    }
    let (i, v) = top.into_sorted();
    as_bits(Ok(zip_entries(i, v)))
}

/// `TopK<T, k>` for the k the files use above [`common::MAX_CONST_K`].
fn run_topk<T: FixtureValue>(x: &[T], k: usize, feed: Feed) -> Option<Outcome> {
    if let Some(r) = via_topk_dyn(x, k, feed) {
        return Some(as_bits(r));
    }
    macro_rules! dispatch {
        ($($n:literal)*) => {
            match k {
                $($n => Some(as_bits(via_topk::<T, $n>(x, feed))),)*
                _ => None,
            }
        };
    }
    dispatch!(49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 75 99 100 127 128 129 130
              149 150 199 200 254 255 256 257 299 300 301)
}

/// The APIs a row runs through, with what each gave. `streaming` is false for a `k > n` row.
fn run_every_api<T: FixtureValue>(
    x: &[T],
    k: usize,
    streaming: bool,
) -> Vec<(&'static str, Outcome)> {
    let mut runs = vec![("top_k_into", run_top_k_into(x, k))];
    if streaming {
        runs.push(("SliceTopK push", as_bits(via_slice_topk(x, k, Feed::Push))));
        runs.push((
            "SliceTopK extend",
            as_bits(via_slice_topk(x, k, Feed::Extend)),
        ));
        runs.push(("SliceTopK chunks of 61", run_slice_topk_chunks(x, k, 61)));
        for (name, feed) in [("TopK push", Feed::Push), ("TopK extend", Feed::Extend)] {
            let r = run_topk(x, k, feed)
                .unwrap_or_else(|| panic!("no TopK<_, {k}>: add {k} to the dispatch of run_topk"));
            runs.push((name, r));
        }
    }
    runs
}

fn expected_result<T>(row: &Row<T>) -> Outcome {
    match &row.expected {
        Expected::Kept(kept) => Ok(kept.clone()),
        &Expected::NotRankable { index } => Err(Error::NotRankable { index }),
        &Expected::KTooLarge { k, n } => Err(Error::KTooLarge { k, n }),
        Expected::KNegative { .. } => unreachable!("k < 0 has no Rust outcome"),
    }
}

/// The rows and the APIs each ran through, counted.
#[derive(Default)]
struct Tally {
    rows: usize,
    runs: BTreeMap<&'static str, usize>,
    negative_k: usize,
}

fn check_row<T: FixtureValue>(row: &Row<T>, tally: &mut Tally) {
    let n = row.x.len();
    tally.rows += 1;
    let ks: Vec<usize> = match usize::try_from(row.k) {
        Ok(k) => vec![k],
        Err(_) => {
            tally.negative_k += 1;
            match row.expected {
                Expected::KNegative { k } => {
                    assert_eq!(k, row.k, "{}: the error names k", row.name);
                    assert!(
                        row.x.iter().all(|v| !v.is_nan()),
                        "{}: a NaN wins over k < 0",
                        row.name
                    );
                    return;
                }
                // The first NaN is the error whatever k is.
                Expected::NotRankable { .. } => [0, 1].into_iter().filter(|&k| k <= n).collect(),
                ref other => panic!("{}: k < 0 cannot give {other:?}", row.name),
            }
        }
    };
    let expected = expected_result(row);
    for k in ks {
        if let Ok(kept) = &expected {
            assert_eq!(kept.len(), k, "{}: the reference kept k entries", row.name);
            for &(i, bits) in kept {
                assert_eq!(
                    row.x[i as usize].to_bits(),
                    bits,
                    "{}: the reference's value for id {i} is the input's",
                    row.name
                );
            }
        }
        assert_eq!(
            as_bits(oracle(&row.x, k)),
            expected,
            "{}: the test oracle, k = {k}",
            row.name
        );
        let streaming = !matches!(expected, Err(Error::KTooLarge { .. }));
        for (api, got) in run_every_api(&row.x, k, streaming) {
            assert_eq!(got, expected, "{}: {api}, k = {k}, n = {n}", row.name);
            *tally.runs.entry(api).or_default() += 1;
        }
    }
}

/// Every row of the files of type `T` through every API; the rows, for further checks.
fn every_row_through_every_api<T: FixtureValue>() -> Vec<Row<T>> {
    let rows = read_fixtures::<T>();
    let mut tally = Tally::default();
    for row in &rows {
        check_row(row, &mut tally);
    }
    let too_large = rows
        .iter()
        .filter(|r| matches!(r.expected, Expected::KTooLarge { .. }))
        .count();
    eprintln!(
        "{:?}: {} fixture rows ({} with k < 0, {} with k > n); runs per API: {:?}",
        T::FILES,
        tally.rows,
        tally.negative_k,
        too_large,
        tally.runs
    );
    // Every row with k >= 0 ran through top_k_into; the streaming APIs ran on all but the
    // k > n rows; rows with k < 0 and a NaN ran with k = 0 and k = 1.
    let negative_nan = rows
        .iter()
        .filter(|r| r.k < 0 && matches!(r.expected, Expected::NotRankable { .. }))
        .map(|r| if r.x.is_empty() { 1 } else { 2 })
        .sum::<usize>();
    let runnable = rows.iter().filter(|r| r.k >= 0).count() + negative_nan;
    assert_eq!(tally.runs["top_k_into"], runnable);
    for (api, &count) in &tally.runs {
        if *api != "top_k_into" {
            assert_eq!(count, runnable - too_large, "{api}");
        }
    }
    assert_eq!(tally.runs.len(), 6);
    rows
}

/// What the files of every type promise: the hand example (k = 3, with the bits of 3 and 2),
/// k < 0, k > n, a NaN that wins over k > n, a NaN at the last place.
fn covers_the_common_rows<T: FixtureValue>(rows: &[Row<T>], three: u32, two: u32) {
    let has = |f: &dyn Fn(&Row<T>) -> bool| rows.iter().any(f);
    let file = T::FILES[0];
    assert!(has(&|r| r.name == format!("{file}:hand_example_k3")
        && r.expected
            == Expected::Kept(vec![(1, three), (3, three), (2, two)])));
    assert!(has(&|r| matches!(r.expected, Expected::KNegative { .. })));
    assert!(has(&|r| matches!(r.expected, Expected::KTooLarge { .. })));
    // A NaN wins over k > n.
    assert!(has(
        &|r| r.k > r.x.len() as i64 && matches!(r.expected, Expected::NotRankable { .. })
    ));
    assert!(has(&|r| !r.x.is_empty()
        && r.expected
            == Expected::NotRankable {
                index: r.x.len() - 1
            }));
}

// Miri's isolation has no file system; the same code runs under Miri in the other tests.
#[test]
#[cfg_attr(miri, ignore = "reads files")]
fn every_fixture_row_through_every_api() {
    let rows = every_row_through_every_api::<f32>();
    covers_the_common_rows(&rows, 0x4040_0000, 0x4000_0000);
    let has = |f: &dyn Fn(&Row<f32>) -> bool| rows.iter().any(f);
    for n in [49_152, 151_936] {
        for k in [40, 50] {
            assert!(has(&|r| r.x.len() == n
                && r.k == k
                && matches!(r.expected, Expected::Kept(_))));
        }
        // A NaN at the last place of a vocabulary row.
        assert!(has(&|r| r.expected
            == Expected::NotRankable { index: n - 1 }
            && r.x.len() == n));
    }
}

#[test]
#[cfg(feature = "half")]
#[cfg_attr(miri, ignore = "reads files")]
fn every_f16_fixture_row_through_every_api() {
    let rows = every_row_through_every_api::<half::f16>();
    covers_the_common_rows(&rows, 0x4200, 0x4000);
}

#[test]
#[cfg(feature = "half")]
#[cfg_attr(miri, ignore = "reads files")]
fn every_bf16_fixture_row_through_every_api() {
    let rows = every_row_through_every_api::<half::bf16>();
    covers_the_common_rows(&rows, 0x4040, 0x4000);
}
