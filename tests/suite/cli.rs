//! The `gpu-noise` binary end to end: formats, spec files, sample, verify and bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test; `GPU_NOISE_BIN` points the CLI tests at another build (an older one,
/// to see which of these tests it fails).
pub fn bin() -> String {
    std::env::var("GPU_NOISE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gpu-noise").to_string())
}

pub fn command() -> Command {
    let mut c = Command::new(bin());
    c.env("XDG_RUNTIME_DIR", std::env::temp_dir());
    c
}

pub fn run(args: &[&str]) -> Output {
    command().args(args).output().expect("run gpu-noise")
}

pub fn run_stdin(args: &[&str], input: &str) -> Output {
    run_stdin_bytes(args, input.as_bytes())
}

pub fn run_stdin_bytes(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // A command that refuses its flags exits before it reads stdin: the pipe may be closed.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

pub fn out(dir: &Path, name: &str) -> (PathBuf, String) {
    let p = dir.join(name);
    let s = p.display().to_string();
    (p, s)
}

#[test]
fn png_8_and_16_bit_decode_to_the_right_size_and_depth() {
    let d = tmp();
    let (p8, s8) = out(d.path(), "a.png");
    let o = run(&["render", "--size", "40x24", "--backend", "cpu", "-o", &s8]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let img = image::open(&p8).unwrap();
    assert_eq!((img.width(), img.height()), (40, 24));
    assert_eq!(img.color(), image::ColorType::L8);
    let (p16, s16) = out(d.path(), "b.png");
    let o = run(&[
        "render",
        "--size",
        "40x24",
        "--bits",
        "16",
        "--backend",
        "cpu",
        "-o",
        &s16,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let img = image::open(&p16).unwrap();
    assert_eq!(img.color(), image::ColorType::L16);
    // Both map the same value: level8 = round(255 t), level16 = round(65535 t), so they agree
    // within the two roundings (0.5 and 0.5 * 255 / 65535 in 8-bit steps).
    let (a, b) = (image::open(&p8).unwrap().to_luma8(), img.to_luma16());
    let slack = 0.5 + 0.5 * 255.0 / 65535.0 + 1e-9;
    for (x, y) in a.pixels().zip(b.pixels()) {
        assert!((f64::from(x[0]) - f64::from(y[0]) * 255.0 / 65535.0).abs() <= slack);
    }
}

fn npy_shape(bytes: &[u8]) -> (String, usize) {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "header not padded to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(
        header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"),
        "{header}"
    );
    assert!(header.ends_with('\n'));
    let shape = header
        .split("'shape': ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap()
        .to_string()
        + ")";
    (shape, 10 + len)
}

#[test]
fn npy_and_f32_hold_the_data_with_the_right_header() {
    let d = tmp();
    let (pn, sn) = out(d.path(), "a.npy");
    let (pf, sf) = out(d.path(), "a.f32");
    for s in [&sn, &sf] {
        let o = run(&["render", "--size", "40x24", "--backend", "cpu", "-o", s]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let npy = std::fs::read(&pn).unwrap();
    let raw = std::fs::read(&pf).unwrap();
    let (shape, start) = npy_shape(&npy);
    assert_eq!(shape, "(24, 40)");
    assert_eq!(raw.len(), 40 * 24 * 4);
    assert_eq!(&npy[start..], &raw[..]);
    let (pv, sv) = out(d.path(), "v.npy");
    let o = run(&[
        "render",
        "--dims",
        "3",
        "--size",
        "8x6x4",
        "--backend",
        "cpu",
        "-o",
        &sv,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let vol = std::fs::read(&pv).unwrap();
    let (shape, start) = npy_shape(&vol);
    assert_eq!(shape, "(4, 6, 8)");
    assert_eq!(vol.len() - start, 8 * 6 * 4 * 4);
}

pub fn f32_file(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn render_reproduces_ken_perlins_value_on_cpu_and_gpu() {
    let d = tmp();
    let expected = 0.136_919_958_784_000_12f64;
    for (backend, tol) in [("cpu", 0.0), ("gpu", 1e-6)] {
        let (p, s) = out(d.path(), &format!("{backend}.f32"));
        let o = run(&[
            "render",
            "--kind",
            "perlin",
            "--dims",
            "3",
            "--seed",
            "0",
            "--frequency",
            "1",
            "--offset",
            "3.14,42,7",
            "--size",
            "1x1",
            "--backend",
            backend,
            "-o",
            &s,
        ]);
        assert!(o.status.success(), "{backend}: {}", text(&o.stderr));
        let v = f32_file(&p)[0];
        if backend == "cpu" {
            assert_eq!(v, expected as f32);
        } else {
            assert!((f64::from(v) - expected).abs() <= tol, "gpu gave {v}");
        }
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn sample_prints_17_significant_digits_on_cpu_and_f32_on_gpu() {
    // Ken Perlin's reference point, on his lattice.
    let o = run_stdin(
        &["sample", "--dims", "3", "--lattice", "table"],
        "3.14 42 7\n\n0 0 0\n",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "0.13691995878400012\n0\n");
    let o = run_stdin(
        &[
            "sample",
            "--dims",
            "3",
            "--lattice",
            "table",
            "--backend",
            "gpu",
        ],
        "3.14 42 7\n",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: f64 = text(&o.stdout).trim().parse().unwrap();
    assert!((v - 0.136_919_958_784_000_12).abs() < 1e-6);
    let o = run_stdin(&["sample", "--dims", "2"], "1 2\n1e19 0\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("point 2"), "{}", text(&o.stderr));
    let o = run_stdin(&["sample", "--dims", "3"], "1 2\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("line 1"), "{}", text(&o.stderr));
}

#[test]
fn print_spec_round_trips_and_flags_override_the_file() {
    let d = tmp();
    let flags = [
        "--kind",
        "value",
        "--interp",
        "catmull-rom",
        "--seed",
        "9",
        "--size",
        "30x20",
        "--fractal",
        "ridged",
        "--octaves",
        "3",
    ];
    let o = run(&[&["render", "--print-spec"][..], &flags].concat());
    assert!(o.status.success());
    let (spec_path, spec) = out(d.path(), "spec.json");
    std::fs::write(&spec_path, &o.stdout).unwrap();
    let (a, sa) = out(d.path(), "a.f32");
    let (b, sb) = out(d.path(), "b.f32");
    assert!(
        run(&["render", "--spec", &spec, "--backend", "cpu", "-o", &sa])
            .status
            .success()
    );
    assert!(
        run(&[&["render"][..], &flags, &["--backend", "cpu", "-o", &sb]].concat())
            .status
            .success()
    );
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // A flag overrides the file: --seed 10 over the file's 9 differs from the file alone.
    assert!(
        run(&[
            "render",
            "--spec",
            &spec,
            "--seed",
            "10",
            "--backend",
            "cpu",
            "-o",
            &sb
        ])
        .status
        .success()
    );
    assert_ne!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // Unknown fields are errors that name --spec.
    let (bad_path, bad) = out(d.path(), "bad.json");
    std::fs::write(&bad_path, r#"{"kind": "perlin", "octave": 3}"#).unwrap();
    let o = run(&["render", "--spec", &bad, "-o", &sa]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--spec") && text(&o.stderr).contains("octave"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn bad_input_exits_2_names_the_flag_and_leaves_no_file() {
    let d = tmp();
    let cases: &[(&[&str], &str, &str)] = &[
        (&["--octaves", "0"], "--octaves", "out.png"),
        (
            &["--octaves", "17", "--fractal", "fbm"],
            "--octaves",
            "out.png",
        ),
        (&["--octaves", "3"], "fractal", "out.png"),
        (&["--dims", "5"], "--dims", "out.png"),
        (&["--kind", "gradient", "--dims", "4"], "--dims", "out.png"),
        (&["--interp", "catmull-rom"], "--interp", "out.png"),
        (
            &["--lacunarity", "0", "--fractal", "fbm", "--octaves", "2"],
            "--lacunarity",
            "out.png",
        ),
        (&["--persistence", "inf"], "--persistence", "out.png"),
        (&["--frequency", "-1"], "--frequency", "out.png"),
        (&["--size", "0x10"], "--size", "out.png"),
        (&["--size", "abc"], "--size", "out.png"),
        (
            &["--size", "64x64", "--frequency", "0.01", "--tile"],
            "--tile",
            "out.png",
        ),
        (&["--bits", "12"], "--bits", "out.png"),
        (&["--range", "1,0"], "--range", "out.png"),
        (&["--offset", "1,2,3"], "--offset", "out.png"),
        (&["--offset", "-1,x"], "--offset", "out.png"),
        (&["--kind", "noodle"], "--kind", "out.png"),
        (&[], "-o", "out.bmp"),
        (
            &["--kind", "cellular", "--interp", "linear"],
            "--interp",
            "out.png",
        ),
        (&["--kind", "cellular", "--dims", "4"], "--dims", "out.png"),
        (&["--kind", "simplex", "--tile"], "--tile", "out.png"),
        (&["--kind", "gabor", "--tile"], "--tile", "out.png"),
        (&["--gabor-frequency", "2"], "--gabor-frequency", "out.png"),
        (
            &["--kind", "cellular", "--jitter", "2"],
            "--jitter",
            "out.png",
        ),
        (
            &["--kind", "gabor", "--gabor-bandwidth", "0.1"],
            "--gabor-bandwidth",
            "out.png",
        ),
        (
            &["--kind", "sparse-convolution", "--density", "0"],
            "--density",
            "out.png",
        ),
        (
            &["--kind", "value", "--return", "f2"],
            "--return",
            "out.png",
        ),
        (&["--dims", "3", "--size", "8x8x2"], "-o", "out.png"),
    ];
    for (args, flag, file) in cases {
        let (path, s) = out(d.path(), file);
        let mut all = vec!["render", "--backend", "cpu", "-o", &s];
        all.extend_from_slice(args);
        let o = run(&all);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(flag),
            "{args:?}: message does not name {flag}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!path.exists(), "{args:?} left {file}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn flags_that_do_not_apply_to_a_kind_name_the_flag_and_the_kind() {
    for (args, flag, kind) in [
        (
            &["--kind", "cellular", "--interp", "linear"][..],
            "--interp",
            "cellular",
        ),
        (&["--kind", "simplex", "--tile"], "--tile", "simplex"),
        (
            &["--kind", "perlin", "--gabor-orientation", "isotropic"],
            "--gabor-orientation",
            "perlin",
        ),
        (&["--kind", "gabor", "--jitter", "1"], "--jitter", "gabor"),
    ] {
        let d = tmp();
        let (path, s) = out(d.path(), "a.png");
        let o = run(&[&["render", "-o", &s][..], args].concat());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains(kind), "{args:?}: {err}");
        assert!(!path.exists());
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn verify_reports_errors_and_bound_and_passes() {
    let o = run(&[
        "verify",
        "--kind",
        "gradient",
        "--dims",
        "3",
        "--size",
        "32x32",
        "--fractal",
        "fbm",
        "--octaves",
        "4",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    for key in [
        "max_abs_err:",
        "rmse:",
        // (8 roundings x 8 corners x magnitude 1.5 + Lipschitz 1.5 x 3 + 1) x 2^-24
        // = 101.5 x 2^-24.
        "bound: 6.050e-6",
        "worst texel:",
        "PASS",
    ] {
        assert!(stdout.contains(key), "missing {key}: {stdout}");
    }
}

/// `verify --backend simd` holds the SIMD backend to the same bound and names it (Catmull-Rom
/// 4D under billow: its widest kernel); an unknown backend is a usage error naming the flag.
#[test]
fn verify_checks_the_simd_backend_too() {
    let o = run(&[
        "verify",
        "--backend",
        "simd",
        "--kind",
        "value",
        "--dims",
        "4",
        "--interp",
        "catmull-rom",
        "--size",
        "24x20",
        "--fractal",
        "billow",
        "--octaves",
        "3",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    assert!(
        stdout.contains("SIMD CPU backend: ") && stdout.contains("PASS"),
        "{stdout}"
    );
    let o = run(&["verify", "--backend", "tpu"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--backend"), "{}", text(&o.stderr));
}

/// `verify` prints each texel's running bound (CONVENTIONS §13) at its largest and at the worst
/// texel, and holds texels to it: for the warped highlands the largest is under a hundredth of
/// the static bound (it was only the static one before).
#[test]
fn verify_prints_and_applies_the_running_bound() {
    let highlands = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/graphs/highlands.json"
    );
    let o = run(&[
        "verify",
        "--backend",
        "simd",
        "--graph",
        highlands,
        "--size",
        "64",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    let number = |key: &str| -> f64 {
        let line = stdout.lines().find(|l| l.starts_with(key)).expect(key);
        let rest = line[key.len()..].trim_start();
        rest.split([' ', ')']).next().unwrap().parse().unwrap()
    };
    let running = number("running bound: at most");
    let stated = number("bound:");
    let error = number("max_abs_err:");
    assert!(error <= running && running * 100.0 < stated, "{stdout}");
    assert!(
        stdout.contains("(its running bound ") && stdout.contains("PASS"),
        "{stdout}"
    );
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn info_lists_adapters() {
    let o = run(&["info"]);
    assert!(o.status.success());
    let s = text(&o.stdout);
    assert!(
        s.contains("[0]") && (s.contains("software") || s.contains("hardware")),
        "{s}"
    );
}

/// The bench's JSON names the machine and gives, per workload and grid, every engine's rate and
/// the thread-for-thread ratios, consistent with the rates it prints (one small case).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn bench_writes_rates_and_ratios_as_json() {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("bench.json");
    let o = run(&[
        "bench",
        "--grid",
        "512",
        "--workload",
        "perlin-2d",
        "--repeat",
        "1",
        "--side",
        "64",
        "--no-webgl-noise",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        v["machine"]["threads"].as_u64(),
        Some(gpu_noise::cpu::threads() as u64)
    );
    let row = &v["rows"][0];
    assert_eq!(
        (row["workload"].as_str(), row["grid"].as_str()),
        (Some("perlin-2d"), Some("512^2"))
    );
    let rate = |e: &str| {
        row["msamples_per_s"][e]
            .as_f64()
            .unwrap_or_else(|| panic!("{e}: {row}"))
    };
    for e in [
        "gpu_kernel",
        "gpu_readback",
        "cpu",
        "cpu_1thread",
        "fastnoise_lite",
        "fastnoise_lite_1thread",
    ] {
        assert!(rate(e) > 0.0, "{e}");
    }
    // With one round the ratio is the ratio of the two rates.
    let ratio = row["ratios"]["cpu_1thread_vs_fastnoise_lite_1thread"]
        .as_f64()
        .unwrap();
    let expected = rate("cpu_1thread") / rate("fastnoise_lite_1thread");
    assert!(
        (ratio / expected - 1.0).abs() < 1e-9,
        "{ratio} vs {expected}"
    );
}

/// `--backend simd` renders what `--backend cpu` (the f64 reference) renders, within the GPU's
/// bound, for a fractal sum over a volume tile set's worth of options (tiling, lattice, seed).
#[test]
fn the_simd_backend_renders_the_references_image_within_the_bound() {
    let d = tmp();
    let flags = [
        "--kind",
        "simplex",
        "--dims",
        "3",
        "--size",
        "70x33x2",
        "--fractal",
        "ridged",
        "--octaves",
        "4",
        "--seed",
        "9",
        "--offset",
        "1e9,-3.5,7",
    ];
    let mut images = Vec::new();
    for backend in ["simd", "cpu"] {
        let (p, s) = out(d.path(), &format!("{backend}.f32"));
        let o = run(&[&["render", "--backend", backend, "-o", &s][..], &flags].concat());
        assert!(o.status.success(), "{backend}: {}", text(&o.stderr));
        let bytes = std::fs::read(p).unwrap();
        images.push(
            bytes
                .chunks(4)
                .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(images[0].len(), 70 * 33 * 2);
    let worst = images[0]
        .iter()
        .zip(&images[1])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(worst <= 2.05e-5, "simd vs cpu: {worst}");
    assert!(
        images[0] != images[1],
        "the two backends should differ in the last bits (f32 vs f64)"
    );
}

/// Without a hardware GPU (as on CI), `auto` renders on the SIMD backend and says so.
#[test]
fn auto_names_the_engine_it_picked() {
    let d = tmp();
    let (_, s) = out(d.path(), "a.f32");
    let o = run(&["render", "--size", "16x16", "-o", &s]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("backend auto: SIMD CPU (") || err.contains("backend auto: GPU ("),
        "{err}"
    );
}

/// A bad token is quoted briefly (a 1 MB token once gave 1 MB of error text), and a line past
/// the read limit is refused without being held whole.
#[test]
fn sample_quotes_a_bad_token_briefly_and_refuses_overlong_lines() {
    let token = "x".repeat(3000);
    let o = run_stdin(&["sample", "--dims", "2"], &format!("1 {token}\n"));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("line 1") && err.contains("(3000 bytes)"),
        "{err}"
    );
    assert!(err.len() < 400, "{} bytes of error", err.len());
    // The tool stops reading at the long line, so the write may meet a closed pipe.
    let mut child = command()
        .args(["sample", "--dims", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let input = format!("1 2\n{}\n", "7".repeat(1 << 20));
        let _ = stdin.write_all(input.as_bytes());
    });
    let o = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("line 2 is longer than 4096 bytes"), "{err}");
    assert!(err.len() < 400, "{} bytes of error", err.len());
}

/// Asserts exit 2 (bad input), a message naming each of `names`, and no panic.
pub fn assert_bad_input(o: &std::process::Output, names: &[&str]) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for name in names {
        assert!(err.contains(name), "message does not name {name}: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

/// The names of the files in `dir`.
pub fn leftovers(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// `verify` applies the tests' rule at discontinuities (CONVENTIONS §7): isotropic Gabor's
/// kernels jump at their truncation, and a texel there beyond the bound passes when the twin a
/// point error away agrees (it printed FAIL before).
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn verify_passes_texels_at_a_discontinuity_the_way_the_tests_do() {
    let o = run(&[
        "verify",
        "--kind",
        "gabor",
        "--gabor-orientation",
        "isotropic",
    ]);
    let stdout = text(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", text(&o.stderr));
    assert!(stdout.contains("PASS"), "{stdout}");
}

/// `bench --fastnoise2 --case` refuses a text that names no workload, before loading the
/// library (exit 2, naming the flag); without `--fastnoise2` clap refuses `--case`.
#[test]
fn bench_case_must_name_a_fastnoise2_workload() {
    let o = run(&[
        "bench",
        "--fastnoise2",
        "/nonexistent.so",
        "--case",
        "nothing",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--case") && err.contains("nothing"), "{err}");
    let o = run(&["bench", "--case", "perlin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--fastnoise2"));
}
