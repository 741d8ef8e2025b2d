//! Builds the C catalog `tests/test_topk.c` with gcc under AddressSanitizer and
//! UndefinedBehaviorSanitizer against `libtinytopk_capi.a`, runs it, and fails with its output.
//! Also builds and runs the C example against `libtinytopk_capi.so`.
//!
//! The libraries are the ones cargo built for this very test run: an integration test depends
//! on its package's library target, and cargo builds that target with every crate type it
//! declares (staticlib, cdylib, rlib) into the `deps` folder this test binary runs from.

#![cfg(not(miri))] // Miri cannot run gcc.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The include folder of `tinyllm/topk.h`.
fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

/// A library cargo built for this run, by file name, next to this test binary
/// (`target/<profile>/deps`).
fn built_library(file_name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("the test binary's folder");
    let lib = deps.join(file_name);
    assert!(
        lib.is_file(),
        "{} is missing: cargo builds it with the library target before this test",
        lib.display()
    );
    lib
}

/// Where this test writes its binaries.
fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tinytopk-capi");
    std::fs::create_dir_all(&dir).expect("create the output folder");
    dir
}

/// What the Rust standard library inside the static library needs from the system
/// (`rustc --print native-static-libs` on linux-gnu).
const RUST_STATIC_LIBS: [&str; 7] = [
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// The flags every C file of this package is held to.
const STRICT: [&str; 5] = ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// Runs a command to completion, or fails the test with a clear message when it cannot start.
fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e} (is gcc installed?)"))
}

/// The output of a finished command, for a failure message.
fn shown(output: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Compiles `source` into `binary` with gcc, extra flags and link arguments, failing the test
/// with the compiler's output when it does not build.
fn gcc(source: &str, binary: &Path, flags: &[&str], link: &[&Path], libs: &[&str]) {
    let mut cmd = Command::new(std::env::var("CC").unwrap_or_else(|_| "gcc".into()));
    cmd.args(STRICT)
        .args(flags)
        .arg("-I")
        .arg(include_dir())
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(source))
        .args(link)
        .args(libs)
        .arg("-o")
        .arg(binary);
    let output = run(&mut cmd);
    assert!(
        output.status.success(),
        "{cmd:?} failed\n{}",
        shown(&output)
    );
}

/// The C catalog, built once under both sanitizers.
fn sanitized_catalog() -> PathBuf {
    let binary = out_dir().join("test_topk");
    gcc(
        "tests/test_topk.c",
        &binary,
        &[
            "-g",
            "-O1",
            "-fno-omit-frame-pointer",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
        ],
        &[&built_library("libtinytopk_capi.a")],
        &RUST_STATIC_LIBS,
    );
    binary
}

/// The `N passed, M failed` line of the catalog's output.
fn tally(stdout: &str) -> Option<(u32, u32)> {
    let line = stdout.lines().rev().find(|l| l.ends_with(" failed"))?;
    let (passed, failed) = line.split_once(" passed, ")?;
    Some((
        passed.parse().ok()?,
        failed.strip_suffix(" failed")?.parse().ok()?,
    ))
}

#[test]
fn the_c_catalog_passes_under_asan_and_ubsan() {
    let binary = sanitized_catalog();

    // The sanitizers are really compiled in: each canary is stopped with its report.
    for (canary, report) in [
        ("asan-canary", "AddressSanitizer: heap-buffer-overflow"),
        ("ubsan-canary", "runtime error: signed integer overflow"),
    ] {
        let output = run(Command::new(&binary).arg(canary));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !output.status.success() && stderr.contains(report),
            "{canary} was not stopped by the sanitizer\n{}",
            shown(&output)
        );
    }

    let output = run(&mut Command::new(&binary));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let counts = tally(&stdout);
    assert!(
        output.status.success() && matches!(counts, Some((passed, 0)) if passed > 0),
        "the C catalog failed\n{}",
        shown(&output)
    );
    // Shown with `cargo test -- --nocapture`.
    print!("{stdout}");
}

#[test]
fn the_c_example_runs_against_the_shared_library() {
    let so = built_library("libtinytopk_capi.so");
    let folder = so.parent().expect("the library's folder");
    let binary = out_dir().join("top_logits");
    let rpath = format!("-Wl,-rpath,{}", folder.display());
    gcc(
        "examples/top_logits.c",
        &binary,
        &["-O2", &rpath],
        &[&so],
        &[],
    );
    let output = run(&mut Command::new(&binary));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("token 1 (logit 3)"),
        "the C example failed\n{}",
        shown(&output)
    );
}
