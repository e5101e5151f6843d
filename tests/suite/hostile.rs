//! The fourth hostile probe's findings, each held: inputs inside the documented limits finish
//! in bounded time and memory (nested fractals on the GPU, Zarr chunk sides and planets, a
//! graph object of 120k keys), user strings reach the terminal escaped and cut short, output
//! names keep their bytes, and a Zarr store refuses the image flags. The watchdogs' limits are
//! generous (a finding took 96 s to 300 s and more, the fix a fraction of a second): they
//! catch a hang, they do not time anything.

use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use super::cli::{command, out, run, text, tmp};

/// Runs the tool, failing the test if it is still running after `limit`.
fn run_within(args: &[&str], limit: Duration) -> Output {
    let child = (command().args(args))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn gpu-noise");
    wait_within(child, limit, &args.join(" "))
}

fn wait_within(mut child: Child, limit: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}: gpu-noise {what}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn write(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path.display().to_string()
}

/// Eight nested 2-octave fBm nodes over one Perlin source, lacunarities the first primes: 256
/// noise evaluations interleaved with 255 sums.
fn nested_fractals() -> String {
    let mut nodes = vec![r#""n0": {"type": "perlin", "frequency": 0.05}"#.to_string()];
    for (i, lacunarity) in [2, 3, 5, 7, 11, 13, 17, 19].iter().enumerate() {
        nodes.push(format!(
            r#""n{}": {{"type": "fbm", "source": "n{i}", "octaves": 2, "lacunarity": {lacunarity}}}"#,
            i + 1
        ));
    }
    format!(
        r#"{{"dims": 2, "output": "n8", "nodes": {{{}}}}}"#,
        nodes.join(", ")
    )
}

/// Was: the fused kernel inlined all 256 evaluations (the loop rewrite saw only 16 or more
/// consecutive ones) and lavapipe was still compiling after 300 s and 2.5 GB. Now the kernel
/// holds Perlin's code once a loop of 64 evaluations, lavapipe compiles it in seconds, and the
/// GPU renders the graph within its bound.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn nested_fractals_compile_one_copy_of_the_noise_and_verify_on_the_gpu() {
    let graph = gpu_noise::Graph::from_json(&nested_fractals()).unwrap();
    let job = graph
        .prepare(gpu_noise::Size::new(16, 16, 1), [0.0; 4])
        .unwrap();
    // Perlin's definition and one call a loop of at most 64 evaluations (256 inlined before).
    let calls = job.wgsl().matches("gn_perlin2(").count();
    assert!(calls <= 8, "Perlin's code appears {calls} times");
    let d = tmp();
    let path = write(d.path(), "nest.json", &nested_fractals());
    let o = run_within(
        &[
            "verify",
            "--graph",
            &path,
            "--size",
            "16",
            "--backend",
            "gpu",
        ],
        Duration::from_secs(240),
    );
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
}

/// Three nested fractals of 16, 16 and 2 octaves: 512 noise evaluations a texel.
const DEEP: &str = r#"{"dims": 2, "output": "c", "nodes": {
        "p": {"type": "perlin", "frequency": 0.05},
        "a": {"type": "fbm", "source": "p", "octaves": 16},
        "b": {"type": "fbm", "source": "a", "octaves": 16, "lacunarity": 1.7},
        "c": {"type": "ridged", "source": "b", "octaves": 2, "lacunarity": 1.5}}}"#;

/// A warp under a 16-octave fractal displaces every octave's noise, and its warping noises
/// alternate with it: 48 evaluations inlined, past the limit of 32. Three nested 16-octave
/// fractals of 16, 16 and 2 octaves evaluate 512 noises a texel, past the GPU's 256. The GPU
/// refuses each naming the node and the way out; SIMD renders them.
#[test]
fn a_kernel_past_the_inline_limit_is_refused_on_the_gpu_naming_the_node() {
    let graph = r#"{"dims": 2, "output": "f", "nodes": {
        "p": {"type": "perlin", "frequency": 0.05},
        "wx": {"type": "value", "frequency": 0.02, "seed": 1},
        "wy": {"type": "value", "frequency": 0.02, "seed": 2},
        "w": {"type": "warp", "source": "p", "by": ["wx", "wy"], "amplitude": 3},
        "f": {"type": "fbm", "source": "w", "octaves": 16, "lacunarity": 1.9}}}"#;
    let d = tmp();
    for (name, graph, node, what) in [
        ("warped.json", graph, "\"p\"", "inline 48 noise evaluations"),
        ("deep.json", DEEP, "\"p\"", "evaluate 512 noises a texel"),
    ] {
        let path = write(d.path(), name, graph);
        let (p, s) = out(d.path(), &format!("{name}.f32"));
        let on = |backend: &str| {
            let args = [
                "render",
                "--graph",
                &path,
                "--size",
                "8",
                "--backend",
                backend,
            ];
            run(&[&args[..], &["-o", &s]].concat())
        };
        let o = on("gpu");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("graph node {node}")) && err.contains(what),
            "{err}"
        );
        assert!(err.contains("--backend simd"), "{err}");
        assert!(!p.exists());
        let o = on("simd");
        assert!(o.status.success(), "{}", text(&o.stderr));
        // The library refuses it too, before anything is built.
        let job = gpu_noise::Graph::from_json(graph).unwrap();
        let job = job
            .prepare(gpu_noise::Size::new(8, 8, 1), [0.0; 4])
            .unwrap();
        let e = job.check_gpu_kernel().unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    }
}

/// The renderer refuses such a graph too, before it builds anything.
#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn the_renderer_refuses_a_kernel_past_the_gpus_limits() {
    let job = gpu_noise::Graph::from_json(DEEP).unwrap();
    let job = job
        .prepare(gpu_noise::Size::new(8, 8, 1), [0.0; 4])
        .unwrap();
    let mut r = super::support::renderer();
    let e = r
        .read(&job, gpu_noise::Window::full(job.size()))
        .unwrap_err();
    assert!(e.to_string().contains("evaluate 512 noises a texel"), "{e}");
    assert!(r.prepare(&job).is_err());
}

fn zarr_chunk_shape(store: &Path) -> Vec<u64> {
    let meta = std::fs::read_to_string(store.join("noise").join("zarr.json")).unwrap();
    let meta: serde_json::Value = serde_json::from_str(&meta).unwrap();
    let shape = &meta["chunk_grid"]["configuration"]["chunk_shape"];
    serde_json::from_value(shape.clone()).unwrap()
}

/// Was: a chunk was a padded square of `--tiles` texels: 64x64 with `--tiles 100000` asked
/// 40 GB and aborted, a 64^3 volume with `--tiles 1024` 4 GiB a chunk, each leaving a claimed
/// store. Chunks are the image's pieces now, and one past 2^26 values is refused naming
/// `--tiles` before the store is made.
#[test]
fn zarr_chunks_are_no_larger_than_the_image_and_a_huge_chunk_is_refused() {
    let d = tmp();
    for (size, tiles, shape) in [
        ("64x64", "100000", vec![64, 64]),
        ("64x64x64 --dims 3", "1024", vec![64, 64, 64]),
        ("300x40", "128", vec![40, 128]),
    ] {
        let (store, s) = out(d.path(), &format!("{}.zarr", size.replace(' ', "")));
        let mut args = vec![
            "render",
            "-q",
            "--backend",
            "cpu",
            "--tiles",
            tiles,
            "--size",
        ];
        args.extend(size.split(' '));
        let o = run_within(&[&args[..], &["-o", &s]].concat(), Duration::from_secs(120));
        assert!(o.status.success(), "{size}: {}", text(&o.stderr));
        assert_eq!(zarr_chunk_shape(&store), shape, "{size} --tiles {tiles}");
    }
    for (size, tiles, dims) in [("16384x16384", "16384", "2"), ("512x512x512", "512", "3")] {
        let (store, s) = out(d.path(), "huge.zarr");
        let o = run(&[
            "render", "--size", size, "--dims", dims, "--tiles", tiles, "-o", &s,
        ]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("--tiles") && err.contains("256 MiB"), "{err}");
        assert!(!store.exists(), "{size}: the refused store was made");
    }
}

/// Was: a 2^32-chunk store listed every chunk before rendering any (48 GiB). Under a 3 GiB
/// address-space limit the planet's first chunks appear on disk.
#[test]
fn a_planet_of_2_to_the_32_chunks_starts_writing_in_bounded_memory() {
    let d = tmp();
    let (store, s) = out(d.path(), "planet.zarr");
    let mut child = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 3000000; exec \"$0\" \"$@\""])
        .arg(super::cli::bin())
        .args([
            "render",
            "-q",
            "--backend",
            "cpu",
            "--size",
            "1048576x1048576",
        ])
        .args(["--tiles", "16", "-o", &s])
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sh");
    let first = store.join("noise").join("c").join("0").join("0");
    let start = Instant::now();
    while !first.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            panic!("exited ({status}) before writing a chunk: {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no chunk after 120 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Was: duplicate keys were checked pairwise, 96 s for a 940 kB node of 120k keys.
#[test]
fn a_node_of_120k_keys_is_refused_at_once_naming_the_first_unknown_key() {
    // 120k distinct three-character keys, none of them a Perlin parameter.
    let digits: Vec<char> = ('0'..='9').chain('a'..='z').chain('A'..='Z').collect();
    let key = |i: usize| -> String {
        [i / 3844, i / 62 % 62, i % 62]
            .map(|d| digits[d])
            .iter()
            .collect()
    };
    let keys: Vec<String> = (0..120_000).map(|i| format!(r#""{}":1"#, key(i))).collect();
    let graph = format!(
        r#"{{"output":"p","nodes":{{"p":{{"type":"perlin",{}}}}}}}"#,
        keys.join(",")
    );
    assert!(graph.len() < 1 << 20, "{} bytes", graph.len());
    let d = tmp();
    let path = write(d.path(), "keys.json", &graph);
    let (_, s) = out(d.path(), "k.f32");
    let o = run_within(
        &["render", "--graph", &path, "-o", &s],
        Duration::from_secs(30),
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("graph node \"p\", 000: does not apply"),
        "{err}"
    );
}

/// An escape sequence that writes the clipboard (OSC 52), then a bell.
const OSC52: &str = "\u{1b}]52;c;aGVsbG8=\u{7}";

/// Was: unknown keys were echoed raw, escape sequences and 900 kB included, for graph nodes,
/// graph top-level keys and `--spec` keys; kind names in a spec came back whole.
#[test]
fn user_strings_in_messages_are_escaped_and_cut_short() {
    let d = tmp();
    let long = "k".repeat(900_000);
    let escaped = serde_json::to_string(OSC52).unwrap();
    let graphs = [
        format!(r#"{{"output": "p", "nodes": {{"p": {{"type": "perlin", {escaped}: 1}}}}}}"#),
        format!(r#"{{"output": "p", {escaped}: 1, "nodes": {{"p": {{"type": "perlin"}}}}}}"#),
        format!(r#"{{"output": "p", "nodes": {{"p": {{"type": "perlin", "{long}": 1}}}}}}"#),
        format!(r#"{{"output": "p", "nodes": {{"p": {{"type": {escaped}}}}}}}"#),
        format!(r#"{{"output": {escaped}, "nodes": {{"p": {{"type": "perlin"}}}}}}"#),
    ];
    let specs = [
        format!(r#"{{"kind": "perlin", {escaped}: 1}}"#),
        format!(r#"{{"kind": "perlin", "{long}": 1}}"#),
        format!(
            r#"{{"kind": "{}{}"}}"#,
            "A".repeat(900_000),
            escaped.trim_matches('"')
        ),
        format!(r#"{{"kind": "perlin", {escaped}: null}}"#),
    ];
    let (_, s) = out(d.path(), "x.f32");
    let cases = (graphs.iter().map(|g| ("--graph", g))).chain(specs.iter().map(|g| ("--spec", g)));
    for (flag, body) in cases {
        let path = write(d.path(), "input.json", body);
        let o = run(&["render", flag, &path, "-o", &s]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            !o.stderr.contains(&0x1b) && !o.stderr.contains(&0x07),
            "raw escape: {err:?}"
        );
        assert!(o.stderr.len() < 2000, "{} bytes of message", o.stderr.len());
        if body.contains("\\u001b") && body.len() < 1000 {
            assert!(
                err.contains("\\u{1b}"),
                "{flag}: the escape is not shown escaped: {err}"
            );
        }
    }
}

/// Was: `-o $'caf\xe9.png'` wrote `caf\xef\xbf\xbd.png`, so two Latin-1 names wrote one file.
#[cfg(unix)]
#[test]
fn output_names_keep_their_bytes() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = tmp();
    let names = [
        b"caf\xe9.f32".as_slice(),
        b"caf\xe8.f32".as_slice(),
        b"\xff.png".as_slice(),
    ];
    for name in names {
        let path = d.path().join(OsStr::from_bytes(name));
        let o = command()
            .args(["render", "-q", "--backend", "cpu", "--size", "8x8", "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(path.exists(), "{:?} was not written", path);
    }
    let mut made: Vec<Vec<u8>> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().as_bytes().to_vec())
        .collect();
    made.sort();
    let mut expected: Vec<Vec<u8>> = names.iter().map(|n| n.to_vec()).collect();
    expected.sort();
    assert_eq!(made, expected);
    // zarrs opens stores by text paths: a non-UTF-8 one is refused by name, never mangled.
    let store = d.path().join(OsStr::from_bytes(b"caf\xe9.zarr"));
    let o = command()
        .args(["render", "--backend", "cpu", "--size", "8x8", "-o"])
        .arg(&store)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("UTF-8"), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read_dir(d.path()).unwrap().count(),
        3,
        "something more was written"
    );
}

/// Was: `--colormap`, `--bits 16` and `--range` were taken for a Zarr store and recorded in
/// its metadata; a store holds float32 values, as `.f32` does, and refuses them.
#[test]
fn image_flags_are_refused_for_a_zarr_store() {
    let d = tmp();
    let (store, s) = out(d.path(), "w.zarr");
    for (flags, named) in [
        (&["--colormap", "terrain"][..], "--colormap"),
        (&["--bits", "16"][..], "--bits"),
        (&["--range", "-1,1"][..], "--range"),
        (&["--range", "auto"][..], "--range"),
    ] {
        let base = ["render", "--backend", "cpu", "--size", "32x32", "-o", &s];
        let o = run(&[&base[..], flags].concat());
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {err}");
        assert!(err.contains(named) && err.contains("float32"), "{err}");
        assert!(!store.exists(), "{flags:?} made the store");
    }
}
