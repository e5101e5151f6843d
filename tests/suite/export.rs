//! Export at any size: streamed bands equal small renders of the same window bit for bit, tiles
//! rendered alone equal tiles of a full run byte for byte and the same window of one image,
//! and every format holds the values the `.f32` output holds.

use std::path::Path;

use gpu_noise::Colormap;
use gpu_noise::low_level::levels::level8;

use crate::cli::{command, f32_file, out, run, text, tmp};

fn ok(args: &[&str]) {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
}

fn assert_bad_input(args: &[&str], names: &[&str]) {
    let o = run(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for name in names {
        assert!(
            err.contains(name),
            "{args:?}: message does not name {name}: {err}"
        );
    }
}

fn png16(path: &Path) -> image::ImageBuffer<image::Luma<u16>, Vec<u16>> {
    image::open(path).unwrap().to_luma16()
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn streamed_rows_equal_a_small_render_of_the_same_window_on_both_backends() {
    let d = tmp();
    for backend in ["cpu", "gpu"] {
        // 2048 x 2560 at 16 bits: 5 bands of 2^22 texels... 1.25 bands; the window straddles
        // the band boundary at row 2048.
        let (big, s) = out(d.path(), &format!("big-{backend}.png"));
        let flags = [
            "--fractal",
            "fbm",
            "--octaves",
            "4",
            "--seed",
            "5",
            "--bits",
            "16",
            "--quiet",
        ];
        ok(&[
            &[
                "render",
                "--backend",
                backend,
                "--size",
                "2048x2560",
                "-o",
                &s,
            ][..],
            &flags,
        ]
        .concat());
        let (small, s) = out(d.path(), &format!("small-{backend}.png"));
        let window = ["--size", "2048x64", "--offset", "0,2020"];
        ok(&[
            &["render", "--backend", backend, "-o", &s][..],
            &window,
            &flags,
        ]
        .concat());
        let (big, small) = (png16(&big), png16(&small));
        for y in 0..64 {
            for x in 0..2048 {
                assert_eq!(
                    big.get_pixel(x, 2020 + y),
                    small.get_pixel(x, y),
                    "{backend} ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn a_tile_alone_equals_the_tile_of_a_full_run_and_the_window_of_one_image() {
    let d = tmp();
    let world = [
        "--size",
        "100x70",
        "--fractal",
        "ridged",
        "--octaves",
        "3",
        "--seed",
        "9",
    ];
    let full = d.path().join("full");
    let alone = d.path().join("alone");
    for (folder, range) in [(&full, None), (&alone, Some("2..3,1..2"))] {
        for format in ["png", "f32"] {
            let dir = folder.join(format);
            let mut args = vec![
                "render",
                "--backend",
                "cpu",
                "--tiles",
                "32",
                "--tile-format",
                format,
            ];
            args.extend_from_slice(&world);
            if let Some(r) = range {
                args.extend_from_slice(&["--tile-range", r]);
            }
            let s = format!("{}/", dir.display());
            args.extend_from_slice(&["-o", &s]);
            ok(&args);
        }
    }
    for format in ["png", "f32"] {
        let name = format!("2_1.{format}");
        let a = std::fs::read(full.join(format).join(&name)).unwrap();
        let b = std::fs::read(alone.join(format).join(&name)).unwrap();
        assert_eq!(a, b, "{name}: alone differs from the full run");
        let listed: Vec<String> = std::fs::read_dir(alone.join(format))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(listed.len(), 2, "{listed:?}"); // the tile and index.json
    }
    // The index names the world, the grid and the tiles' names, and lists no tile (its size
    // does not grow with the world).
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(alone.join("png/index.json")).unwrap())
            .unwrap();
    assert_eq!(index["files"], "{x}_{y}.png");
    assert!(index.get("tiles").is_none(), "{index}");
    assert_eq!(index["grid"]["columns"], 4);
    // Tile (2, 1) covers world texels x 64..96, y 32..64 of one big image.
    let (image, s) = out(d.path(), "world.f32");
    ok(&[&["render", "--backend", "cpu", "-o", &s][..], &world].concat());
    let world_values = f32_file(&image);
    let tile = f32_file(&alone.join("f32/2_1.f32"));
    for y in 0..32usize {
        for x in 0..32usize {
            assert_eq!(
                tile[y * 32 + x].to_bits(),
                world_values[(32 + y) * 100 + 64 + x].to_bits()
            );
        }
    }
    // Running the full set again renders nothing: every tile is whole and is kept.
    let s = format!("{}/", full.join("png").display());
    let o = run(&[&["render", "--tiles", "32", "-o", &s][..], &world].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("wrote 0 tiles and kept 12"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn tile_sets_refuse_ranges_outside_the_grid_and_other_worlds_in_the_folder() {
    let d = tmp();
    let s = format!("{}/", d.path().join("t").display());
    let world = ["--backend", "cpu", "--size", "100x70", "--tiles", "32"];
    assert_bad_input(
        &[
            &["render", "-o", &s][..],
            &world,
            &["--tile-range", "0..5,0..1"],
        ]
        .concat(),
        &["--tile-range", "4 x 3"],
    );
    assert_bad_input(
        &[&["render", "-o", &s][..], &world, &["--tile-range", "0..1"]].concat(),
        &["--tile-range"],
    );
    ok(&[
        &["render", "-o", &s][..],
        &world,
        &["--tile-range", "0..1,0..1"],
    ]
    .concat());
    assert_bad_input(
        &[&["render", "--seed", "4", "-o", &s][..], &world].concat(),
        &["another tile set"],
    );
    assert_bad_input(
        &["render", "--tile-range", "0..1,0..1", "-o", "a.png"],
        &["--tile-range", "--tiles"],
    );
}

#[test]
fn every_format_holds_the_values_of_the_f32_output() {
    let d = tmp();
    let spec = [
        "--backend",
        "cpu",
        "--size",
        "96x40",
        "--fractal",
        "fbm",
        "--octaves",
        "3",
    ];
    let (raw, s) = out(d.path(), "a.f32");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let values = f32_file(&raw);
    // OpenEXR: one channel Y.
    let (exr_path, s) = out(d.path(), "a.exr");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let exr = exr::prelude::read_first_flat_layer_from_file(&exr_path).unwrap();
    assert_eq!(exr.layer_data.size, exr::math::Vec2(96, 40));
    let channel = &exr.layer_data.channel_data.list[0];
    assert_eq!(channel.name.to_string(), "Y");
    let read: Vec<f32> = channel.sample_data.values_as_f32().collect();
    assert_eq!(read, values);
    // TIFF: 32-bit float gray.
    let (tif, s) = out(d.path(), "a.tif");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let mut decoder = tiff::decoder::Decoder::new(std::fs::File::open(&tif).unwrap()).unwrap();
    assert_eq!(decoder.dimensions().unwrap(), (96, 40));
    match decoder.read_image().unwrap() {
        tiff::decoder::DecodingResult::F32(read) => assert_eq!(read, values),
        other => panic!("not f32: {:?}", std::mem::discriminant(&other)),
    }
    // Colormapped PNG: RGB, each pixel the map's color at the value's level.
    let (png, s) = out(d.path(), "a.png");
    ok(&[&["render", "--colormap", "viridis", "-o", &s][..], &spec].concat());
    let rgb = image::open(&png).unwrap().to_rgb8();
    let table = Colormap::Viridis.table((-1.0, 1.0));
    for (p, v) in rgb.pixels().zip(&values) {
        let want = table[usize::from(level8(f64::from(*v), (-1.0, 1.0)))];
        assert_eq!(p.0, [want[0], want[1], want[2]]);
    }
}

#[test]
fn one_dimensional_renders_are_csv_profiles_and_plots() {
    let d = tmp();
    let spec = [
        "--backend",
        "cpu",
        "--dims",
        "1",
        "--size",
        "300",
        "--frequency",
        "0.25",
    ];
    let (raw, s) = out(d.path(), "a.f32");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let values = f32_file(&raw);
    let (csv, s) = out(d.path(), "a.csv");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("x,value"));
    for (i, line) in lines.enumerate() {
        let (x, v) = line.split_once(',').unwrap();
        assert_eq!(x.parse::<f64>().unwrap(), 0.25 * i as f64);
        assert_eq!(v.parse::<f32>().unwrap(), values[i]);
    }
    let (plot, s) = out(d.path(), "a.png");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let img = image::open(&plot).unwrap();
    assert_eq!(
        (img.width(), img.height(), img.color()),
        (1200, 500, image::ColorType::Rgb8)
    );
    // The curve is drawn: some pixels are the line's blue, most are the white background.
    let rgb = img.to_rgb8();
    let blue = rgb.pixels().filter(|p| p.0 == [31, 119, 180]).count();
    assert!(blue > 300, "only {blue} curve pixels");
    assert_bad_input(
        &["render", "--size", "30x20", "-o", "a.csv"],
        &["-o", "1 dim"],
    );
}

#[test]
fn volumes_stream_as_npy_and_as_png_slices_each_equal_to_its_2d_slice() {
    let d = tmp();
    let spec = [
        "--backend",
        "cpu",
        "--dims",
        "3",
        "--size",
        "40x24x5",
        "--seed",
        "3",
    ];
    let pattern = d.path().join("slices").join("slice_{k:02}.png");
    std::fs::create_dir(d.path().join("slices")).unwrap();
    ok(&[&["render", "-o", pattern.to_str().unwrap()][..], &spec].concat());
    for k in 0..5 {
        let slice = image::open(d.path().join(format!("slices/slice_{k:02}.png")))
            .unwrap()
            .to_luma8();
        let (flat, s) = out(d.path(), &format!("flat{k}.png"));
        let offset = format!("0,0,{k}");
        ok(&[
            "render",
            "--backend",
            "cpu",
            "--dims",
            "3",
            "--size",
            "40x24",
            "--seed",
            "3",
            "--offset",
            &offset,
            "-o",
            &s,
        ]);
        assert_eq!(slice, image::open(&flat).unwrap().to_luma8(), "slice {k}");
    }
    let (npy, s) = out(d.path(), "v.npy");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    assert_eq!(
        std::fs::metadata(&npy).unwrap().len(),
        128 + 40 * 24 * 5 * 4
    );
}

#[test]
fn bad_export_input_is_refused_before_any_work_and_leaves_nothing() {
    let d = tmp();
    let (_, s) = out(d.path(), "a.png");
    for stops in [
        "0:#fff,1:#000000",
        "1:#000000,0:#ffffff",
        "blue",
        "0:#ffffff",
    ] {
        assert_bad_input(&["render", "--colormap", stops, "-o", &s], &["--colormap"]);
    }
    // A raw file larger than the disk: refused with the sizes, before rendering.
    let (_, s) = out(d.path(), "huge.f32");
    assert_bad_input(
        &[
            "render",
            "--backend",
            "cpu",
            "--size",
            "16777216x65536",
            "-o",
            &s,
        ],
        &["-o", "GiB", "free"],
    );
    assert_bad_input(
        &[
            "render",
            "--dims",
            "3",
            "--size",
            "8x8x2",
            "-o",
            &s.replace(".f32", ".exr"),
        ],
        &["-o", "volume"],
    );
    let left: Vec<_> = std::fs::read_dir(d.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    // An interrupted tile set keeps its finished tiles (each whole) and its index.
    let folder = d.path().join("tiles");
    let s = format!("{}/", folder.display());
    let mut child = command()
        .args([
            "render",
            "--backend",
            "cpu",
            "--size",
            "4096x4096",
            "--tiles",
            "512",
            "--quiet",
            "-o",
            &s,
        ])
        .spawn()
        .unwrap();
    let mut waited = 0;
    while !folder.join("0_1.png").exists() && waited < 1200 {
        std::thread::sleep(std::time::Duration::from_millis(25));
        waited += 1;
    }
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    // Every tile file there is whole (files appear only whole), and the index is there.
    assert!(folder.join("index.json").is_file());
    for entry in std::fs::read_dir(&folder).unwrap() {
        let file = entry.unwrap().path();
        if file.extension().is_some_and(|e| e == "png") {
            assert!(
                image::open(&file).is_ok(),
                "{} is unreadable",
                file.display()
            );
        }
    }
    let names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.starts_with(".gpu-noise-")),
        "{names:?}"
    );
}

/// Colormap stops are exact in PNG output (issue 13, point 5): a far third stop no longer
/// darkens everything, and a sharp coastline (blue below 0, green from 0.001) puts every texel
/// on the side of its value.
#[test]
fn colormap_stops_are_interpolated_at_each_value() {
    let d = tmp();
    let spec = [
        "--backend",
        "cpu",
        "--size",
        "64x48",
        "--fractal",
        "fbm",
        "--octaves",
        "3",
    ];
    let (values_path, s) = out(d.path(), "v.f32");
    ok(&[&["render", "-o", &s][..], &spec].concat());
    let values = f32_file(&values_path);
    type Holds = fn(f32, &[u8]) -> bool;
    let cases: [(&str, Holds); 2] = [
        ("-1:#000000,1:#ffffff,1000:#ff0000", |v, c| {
            let expected = 255.0 * (f64::from(v).clamp(-1.0, 1.0) + 1.0) / 2.0;
            c[0] == c[1] && c[1] == c[2] && (f64::from(c[0]) - expected).abs() <= 0.5
        }),
        ("-1:#0000ff,0:#0000ff,0.001:#00ff00,1:#00ff00", |v, c| {
            if v <= 0.0 {
                c == [0, 0, 255]
            } else if v >= 0.001 {
                c == [0, 255, 0]
            } else {
                c[0] == 0
            }
        }),
    ];
    for (stops, holds) in cases {
        let (png_path, s) = out(d.path(), "c.png");
        ok(&[&["render", "--colormap", stops, "-o", &s][..], &spec].concat());
        let image = image::open(&png_path).unwrap().to_rgb8();
        for (c, v) in image.pixels().zip(&values) {
            assert!(holds(*v, &c.0), "{stops}: {:?} for {v}", c.0);
        }
    }
}
