//! The header in the repository (include/gpu_noise.h) is cbindgen's of the source as it is:
//! `UPDATE_HEADER=1 cargo test -p gpu-noise-c --test header` writes it anew.

#[test]
fn the_header_is_current() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let config = cbindgen::Config::from_file(format!("{dir}/cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads the crate");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = format!("{dir}/include/gpu_noise.h");
    if std::env::var_os("UPDATE_HEADER").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let kept = std::fs::read(&path).unwrap_or_default();
    assert!(
        kept == fresh,
        "{path} is not cbindgen's of the source: UPDATE_HEADER=1 cargo test -p gpu-noise-c --test header"
    );
}
