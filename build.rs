// GPU tests carry `#[cfg_attr(gpu_tests_skipped, ignore = ...)]`: building with
// GPU_NOISE_SKIP_GPU_TESTS=1 marks them ignored, so a run without an adapter shows them as
// ignored rather than passed (vello_tests does the same). CI never sets it.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(gpu_tests_skipped)");
    println!("cargo::rerun-if-env-changed=GPU_NOISE_SKIP_GPU_TESTS");
    if std::env::var("GPU_NOISE_SKIP_GPU_TESTS").as_deref() == Ok("1") {
        println!("cargo::rustc-cfg=gpu_tests_skipped");
    }
}
