//! Same seed, same bytes; different seed, different image (CPU and GPU), for every kind.

use gpu_noise::{Kind, cpu};

use crate::support::{renderer, spec};
use gpu_noise::Window;

#[test]
fn cpu_same_seed_same_bytes_different_seed_different_image() {
    for &kind in Kind::ALL {
        let mut a = spec(kind, 2, 32, 32);
        a.seed = 1234;
        let first = cpu::render_f32(&a.validate().unwrap()).unwrap();
        let again = cpu::render_f32(&a.validate().unwrap()).unwrap();
        assert_eq!(first, again, "{kind:?}");
        a.seed = 1235;
        let other = cpu::render_f32(&a.validate().unwrap()).unwrap();
        let differing = first.iter().zip(&other).filter(|(x, y)| x != y).count();
        assert!(
            differing > first.len() / 2,
            "{kind:?}: only {differing} texels differ"
        );
    }
}

#[test]
#[cfg_attr(gpu_tests_skipped, ignore = "GPU_NOISE_SKIP_GPU_TESTS=1")]
fn gpu_same_seed_same_bytes_different_seed_different_image() {
    let mut r = renderer();
    for &kind in Kind::ALL {
        let mut a = spec(kind, kind.max_dims().min(3), 32, 32);
        a.seed = 99;
        let prep = a.validate().unwrap();
        let first = r.read(&prep, Window::full(prep.size())).unwrap();
        assert_eq!(
            first,
            r.read(&prep, Window::full(prep.size())).unwrap(),
            "{kind:?}"
        );
        a.seed = 100;
        let job = a.validate().unwrap();
        let other = r.read(&job, Window::full(job.size())).unwrap();
        let differing = first.iter().zip(&other).filter(|(x, y)| x != y).count();
        assert!(
            differing > first.len() / 2,
            "{kind:?}: only {differing} texels differ"
        );
    }
}
