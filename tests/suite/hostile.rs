//! Hostile but realistic input, one test per defect found by trying about 150 of them: each
//! failed against the binary before the fix (run them with `GPU_NOISE_BIN=old-binary`) and
//! passes now. Numbers are the issue's.

use std::io::Read;
use std::process::Stdio;

use gpu_noise::tolerance::check_gpu_precision;
use gpu_noise::{Error, Fractal, Kind, NoiseSpec, Size};

use crate::cli::{command, f32_file, out, run, run_stdin, run_stdin_bytes, text, tmp};

fn assert_bad_input(o: &std::process::Output, names: &[&str]) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for name in names {
        assert!(err.contains(name), "message does not name {name}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Case 1: Far from the origin the bound outgrew the noise's own range, so an all-zero GPU image
/// passed `verify` and `render --backend gpu` wrote it. Points now reach the GPU split exactly
/// into cells and fractions (CONVENTIONS §1): the bound stays 2e-5-sized, `verify` passes on its
/// merits, and the GPU writes real noise equal to the CPU's.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn case_1_far_from_the_origin_the_gpu_renders_real_noise_within_a_bound_that_stays_small() {
    let o = run(&["verify", "--size", "64x64", "--offset", "1e9,1e9"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    assert!(text(&o.stdout).contains("PASS"));
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.size = Size::new(64, 64, 1);
    spec.offset = [1e9, 1e9, 0.0, 0.0];
    assert!(check_gpu_precision(&spec).is_ok());
    let d = tmp();
    let mut images = Vec::new();
    for backend in ["gpu", "cpu"] {
        let (path, s) = out(d.path(), &format!("far-{backend}.f32"));
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--size",
            "64x64",
            "--offset",
            "1e9,1e9",
            "-o",
            &s,
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        images.push(f32_file(&path));
    }
    assert!(
        images[0].iter().any(|v| v.abs() > 0.1),
        "the GPU image is real noise"
    );
    let worst = images[0]
        .iter()
        .zip(&images[1])
        .map(|(g, c)| (g - c).abs())
        .fold(0.0f32, f32::max);
    assert!(worst < 2e-5, "GPU and CPU differ by {worst}");
}

/// Case 2: The reach guard scaled by lacunarity^(octaves-1), which shrinks for lacunarity < 1:
/// octave 0 then sampled at 3e10 and `verify` passed an error of 0.41. The guard is now the
/// 62-bit cell limit, and still checks the largest octave.
#[test]
fn case_2_the_reach_guard_checks_the_largest_octave_whichever_way_lacunarity_goes() {
    let o = run(&[
        "verify",
        "--fractal",
        "fbm",
        "--octaves",
        "16",
        "--lacunarity",
        "0.5",
        "--offset",
        "2e20,0",
        "--size",
        "64x64",
    ]);
    assert_bad_input(&o, &["--offset", "2^62"]);
    let mut spec = NoiseSpec::new(Kind::Perlin, 2);
    spec.fractal = Fractal::Fbm;
    spec.octaves = 16;
    spec.lacunarity = 0.5;
    spec.offset = [1.6e20, 0.0, 0.0, 0.0]; // octave 0 at 5e18 cells, the last at 1.5e14
    assert!(matches!(
        spec.validate(),
        Err(Error::InvalidSpec {
            field: "offset",
            ..
        })
    ));
    spec.offset = [1.4e20, 0.0, 0.0, 0.0]; // octave 0 at 4.4e18 < 2^62: inside
    assert!(spec.validate().is_ok());
}

/// Case 3: NaN images: amplitudes overflowed (persistence 1e300 on the CPU, 1e20 in the GPU's f32),
/// and the last octave's scale overflowed f32 (lacunarity 1e20).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn case_3_extreme_persistence_and_lacunarity_give_finite_images_or_an_error() {
    let d = tmp();
    for (backend, persistence) in [("cpu", "1e300"), ("gpu", "1e20"), ("gpu", "1e300")] {
        let (path, s) = out(d.path(), &format!("{backend}-{persistence}.f32"));
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--fractal",
            "fbm",
            "--octaves",
            "3",
            "--persistence",
            persistence,
            "--size",
            "48x32",
            "-o",
            &s,
        ]);
        assert!(
            o.status.success(),
            "{backend} {persistence}: {}",
            text(&o.stderr)
        );
        let values = f32_file(&path);
        assert!(
            values.iter().all(|v| v.is_finite()),
            "{backend} {persistence}: non-finite"
        );
        assert!(
            values.iter().any(|v| v.abs() > 0.05),
            "{backend} {persistence}: flat"
        );
    }
    for backend in ["cpu", "gpu"] {
        let (path, s) = out(d.path(), "lacunarity.f32");
        let o = run(&[
            "render",
            "--backend",
            backend,
            "--lacunarity",
            "1e20",
            "--octaves",
            "3",
            "--fractal",
            "fbm",
            "--size",
            "1x1",
            "-o",
            &s,
        ]);
        assert_bad_input(&o, &["--lacunarity"]);
        assert!(!path.exists());
    }
}

/// Case 4: `sample` held every point and printed nothing until EOF (10 million points aborted
/// under a 1 GiB limit). Now values come out while input is still arriving, and memory stays
/// flat however long the input is.
#[test]
fn case_4_sample_streams_its_output_in_bounded_memory() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = command()
        .args(["sample", "--dims", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // An answer arrives while stdin is still open: nothing waits for EOF.
    stdin.write_all(b"3.14 42 7\n").unwrap();
    stdin.flush().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut first = String::new();
        let _ = stdout.read_line(&mut first);
        let _ = send.send((first, stdout));
    });
    let Ok((first, mut stdout)) = receive.recv_timeout(std::time::Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("no answer while stdin stays open: sample waits for EOF");
    };
    assert_eq!(first, "0.13691995878400012\n");
    // Two million more points, read as they come; peak memory stays far below what holding
    // them would take (2e6 points x 32 bytes = 64 MB, plus their text).
    let pid = child.id();
    let writer = std::thread::spawn(move || {
        let line = b"0.5 1.25 -3.75\n".repeat(10_000);
        for _ in 0..200 {
            stdin.write_all(&line).unwrap();
        }
    });
    let mut lines = 0u64;
    let mut peak_kib = 0u64;
    let mut buf = String::new();
    while stdout.read_line(&mut buf).unwrap() > 0 {
        lines += 1;
        buf.clear();
        if lines.is_multiple_of(100_000) {
            peak_kib = peak_kib.max(vm_hwm_kib(pid));
        }
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success());
    assert_eq!(lines, 2_000_000);
    assert!(
        peak_kib > 0 && peak_kib < 48 * 1024,
        "peak RSS {peak_kib} KiB"
    );
}

/// The peak resident set of a running process, from /proc.
fn vm_hwm_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Case 5: SIGINT or SIGTERM during a long render left `.NAME.tmp-PID` behind. The exit status
/// is 128 + the signal's number, as a shell reports it (SIGINT 2, SIGHUP 1, SIGTERM 15 in
/// POSIX).
#[test]
fn case_5_interrupting_a_render_leaves_no_temporary_file() {
    for (signal, code) in [("-INT", 130), ("-TERM", 143), ("-HUP", 129)] {
        let d = tmp();
        let (path, s) = out(d.path(), "big.f32");
        let mut child = command()
            .args([
                "render",
                "--backend",
                "cpu",
                "--size",
                "16384x16384",
                "--quiet",
                "-o",
                &s,
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the temporary file exists and is growing, then interrupt.
        let mut waited = 0;
        while leftovers(d.path()).is_empty() && waited < 600 {
            std::thread::sleep(std::time::Duration::from_millis(50));
            waited += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            !leftovers(d.path()).is_empty(),
            "{signal}: no temporary file appeared"
        );
        let killed = std::process::Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!(status.code(), Some(code), "{signal}: {err}");
        assert!(!path.exists(), "{signal}: a partial file at the target");
        assert!(
            leftovers(d.path()).is_empty(),
            "{signal}: left {:?}",
            leftovers(d.path())
        );
    }
}

/// Case 6: `--print-spec` printed specs that do not validate, with NaN as `null`, which a later
/// `--spec` silently replaced by the default.
#[test]
fn case_6_print_spec_validates_first_and_null_fields_are_errors() {
    let o = run(&["render", "--print-spec", "--frequency", "NaN"]);
    assert_bad_input(&o, &["--frequency"]);
    assert!(o.stdout.is_empty(), "printed {}", text(&o.stdout));
    let d = tmp();
    let (spec_path, spec) = out(d.path(), "s.json");
    std::fs::write(&spec_path, r#"{"kind": "perlin", "frequency": null}"#).unwrap();
    let (path, s) = out(d.path(), "a.f32");
    let o = run(&["render", "--spec", &spec, "--backend", "cpu", "-o", &s]);
    assert_bad_input(&o, &["--spec", "frequency", "null"]);
    assert!(!path.exists());
}

/// Case 7: `--spec /dev/zero` read 4.2 GB before failing.
#[test]
fn case_7_spec_files_are_read_up_to_a_small_limit() {
    let d = tmp();
    let (_, s) = out(d.path(), "a.png");
    let o = run(&["render", "--spec", "/dev/zero", "-o", &s]);
    assert_bad_input(&o, &["--spec", "larger than"]);
}

/// Case 8: Legal names of 246-255 bytes could not be written: the temporary name added ~10 bytes.
#[test]
fn case_8_the_longest_legal_file_names_can_be_written() {
    let d = tmp();
    for len in [246, 251, 255] {
        let name = format!("{}.f32", "n".repeat(len - 4));
        let (path, s) = out(d.path(), &name);
        let o = run(&["render", "--backend", "cpu", "--size", "8x8", "-o", &s]);
        assert!(o.status.success(), "{len} bytes: {}", text(&o.stderr));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 8 * 8 * 4);
    }
    assert_eq!(leftovers(d.path()).len(), 3);
}

/// Case 9: The output path was checked only after rendering (65 s at 2^30 texels). Now it is the
/// first thing checked: here, before even looking for a GPU adapter that does not exist.
#[test]
fn case_9_the_output_folder_is_checked_before_any_work() {
    let d = tmp();
    let missing = d.path().join("no-such-folder").join("a.f32");
    let o = command()
        .args(["render", "--backend", "gpu", "-o"])
        .arg(&missing)
        .env("WGPU_ADAPTER_NAME", "no adapter has this name")
        .output()
        .unwrap();
    assert_bad_input(&o, &["no-such-folder"]);
    assert!(!text(&o.stderr).contains("adapter"), "{}", text(&o.stderr));
}

/// Case 10: Messages that misled.
#[test]
fn case_10_messages_name_the_real_cause_and_values_parse_as_users_write_them() {
    let d = tmp();
    let (png, s) = out(d.path(), "a.png");
    // Offset and lacunarity overflows were blamed on --frequency.
    assert_bad_input(
        &run(&["render", "--offset", "1e21,0", "-o", &s]),
        &["--offset", "2^62"],
    );
    let o = run(&[
        "render",
        "--fractal",
        "fbm",
        "--octaves",
        "16",
        "--lacunarity",
        "10",
        "-o",
        &s,
    ]);
    assert_bad_input(&o, &["--lacunarity"]);
    // `--frequency -inf` said "unexpected argument '-i'".
    assert_bad_input(
        &run(&["render", "--frequency", "-inf", "-o", &s]),
        &["--frequency"],
    );
    // sample rejected a --frequency it then ignored: now it says it does not apply.
    let o = run_stdin(&["sample", "--frequency", "0.5"], "1 2\n");
    assert_bad_input(&o, &["--frequency", "does not apply"]);
    // WGPU_BACKEND=nonsense was shown as Backends(0x0).
    let o = command()
        .args(["info"])
        .env("WGPU_BACKEND", "nonsense")
        .output()
        .unwrap();
    assert_bad_input(&o, &["WGPU_BACKEND", "vulkan"]);
    // bench --repeat 0 printed "median of 0".
    assert_bad_input(&run(&["bench", "--repeat", "0"]), &["--repeat"]);
    assert_bad_input(&run(&["bench", "--grid", "1000"]), &["--grid", "256^3"]);
    assert_bad_input(
        &run(&["bench", "--workload", "perlin"]),
        &["--workload", "gabor-2d"],
    );
    // --range/--bits for .f32 were silently ignored.
    let (_, f32_out) = out(d.path(), "a.f32");
    for flag in [
        ["--range", "0,1"],
        ["--bits", "16"],
        ["--colormap", "magma"],
    ] {
        let args = [
            &["render", "--backend", "cpu", "-o", &f32_out][..],
            &flag[..],
        ]
        .concat();
        assert_bad_input(&run(&args), &[flag[0], ".png"]);
    }
    // sample with invalid UTF-8 exited 1.
    assert_bad_input(
        &run_stdin_bytes(&["sample"], b"1 \xff\n"),
        &["stdin", "UTF-8"],
    );
    assert!(!png.exists() && leftovers(d.path()).is_empty());
}

/// Case 10, continued: sizes, ranges and the tiling fix-it.
#[test]
fn case_10_one_number_means_a_square_huge_ranges_map_and_tile_suggestions_tile() {
    let d = tmp();
    let (png, s) = out(d.path(), "square.png");
    let o = run(&["render", "--backend", "cpu", "--size", "40", "-o", &s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let img = image::open(&png).unwrap();
    assert_eq!((img.width(), img.height()), (40, 40));
    // --range=-1e308,1e308 overflowed hi - lo into a black image; every value maps to mid-gray.
    let (png, s) = out(d.path(), "range.png");
    let o = run(&[
        "render",
        "--backend",
        "cpu",
        "--size",
        "16",
        "--range=-1e308,1e308",
        "-o",
        &s,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let gray = image::open(&png).unwrap().to_luma8();
    assert!(
        gray.pixels().all(|p| p[0] == 128),
        "{:?}",
        gray.pixels().next()
    );
    // The --tile fix-it suggested a frequency that failed when lacunarity was not 2.
    let (_, s) = out(d.path(), "tile.png");
    let base = [
        "render",
        "--backend",
        "cpu",
        "--size",
        "60",
        "--tile",
        "--fractal",
        "fbm",
    ];
    let o = run(&[
        &base[..],
        &["--octaves", "4", "--lacunarity", "1.5", "-o", &s],
    ]
    .concat());
    assert_bad_input(&o, &["--tile", "e.g. frequency"]);
    let err = text(&o.stderr);
    let suggested = err
        .split("e.g. frequency ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| c == ')' || c.is_whitespace()).next())
        .expect("a suggested frequency");
    let o = run(&[
        &base[..],
        &[
            "--octaves",
            "4",
            "--lacunarity",
            "1.5",
            "--frequency",
            suggested,
            "-o",
            &s,
        ],
    ]
    .concat());
    assert!(
        o.status.success(),
        "suggested {suggested}: {}",
        text(&o.stderr)
    );
}

/// Case 11: `Prepared` had public fields: raising `octaves` after validation made the shader read
/// past the uploaded tables. Now its fields are private (a compile_fail doc test on
/// `Prepared` shows the edit no longer compiles) and every change goes through validation.
#[test]
fn case_11_prepared_changes_only_through_validation() {
    let mut prep = NoiseSpec::new(Kind::Perlin, 2).validate().unwrap();
    let mut bad = prep.spec().clone();
    bad.octaves = 16; // without a fractal
    assert!(matches!(
        prep.set_spec(bad),
        Err(Error::InvalidSpec {
            field: "octaves",
            ..
        })
    ));
    assert_eq!(prep.spec().octaves, 1);
    assert_eq!(prep.octaves().len(), 1, "unchanged after the refused edit");
    assert!(prep.set_offset([f64::NAN, 0.0, 0.0, 0.0]).is_err());
    assert_eq!(prep.spec().offset, [0.0; 4]);
}
