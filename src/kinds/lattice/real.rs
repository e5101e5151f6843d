//! Arithmetic written once for both precisions: the twin calls it in f64, the lanes in f32
//! (the GPU's precision), so the two mirror each other by construction. WGSL has its own copy
//! of each function, with the same name.

/// A float the shared functions run in: `f64` (the twin) or `f32` (the lanes).
pub trait Real: num_traits::Float {
    /// An f64 constant in this precision (rounded to nearest for f32).
    fn of(x: f64) -> Self;

    /// `|self|^p` (0 at 0): f64's own `powf` on the twin; in f32 the GPU's arithmetic
    /// (`pow_of_positive`, WGSL's `pow` may be far off on a conforming adapter).
    fn pow_of_abs(self, p: Self) -> Self;
}

impl Real for f32 {
    #[inline(always)]
    fn of(x: f64) -> f32 {
        x as f32
    }

    #[inline(always)]
    fn pow_of_abs(self, p: f32) -> f32 {
        if self == 0.0 {
            return 0.0;
        }
        super::math::pow_of_positive(self.abs(), p)
    }
}

impl Real for f64 {
    #[inline(always)]
    fn of(x: f64) -> f64 {
        x
    }

    #[inline(always)]
    fn pow_of_abs(self, p: f64) -> f64 {
        self.abs().powf(p)
    }
}

/// `a + t (b - a)`, in Ken Perlin's operation order.
#[inline(always)]
pub fn lerp<R: Real>(t: R, a: R, b: R) -> R {
    a + t * (b - a)
}

/// Catmull-Rom spline through v_-1, v_0, v_1, v_2 at t in [0, 1) (CONVENTIONS §3).
#[inline(always)]
pub fn catmull_rom<R: Real>(t: R, vm1: R, v0: R, v1: R, v2: R) -> R {
    let c = R::of;
    let t2 = t * t;
    let t3 = t2 * t;
    c(0.5)
        * ((-t3 + c(2.0) * t2 - t) * vm1
            + (c(3.0) * t3 - c(5.0) * t2 + c(2.0)) * v0
            + (c(-3.0) * t3 + c(4.0) * t2 + t) * v1
            + (t3 - t2) * v2)
}

/// The derivative in t of [`catmull_rom`].
#[inline(always)]
pub fn catmull_rom_derivative<R: Real>(t: R, vm1: R, v0: R, v1: R, v2: R) -> R {
    let c = R::of;
    c(0.5)
        * ((c(-3.0) * t * t + c(4.0) * t - R::one()) * vm1
            + (c(9.0) * t * t - c(10.0) * t) * v0
            + (c(-9.0) * t * t + c(8.0) * t + R::one()) * v1
            + (c(3.0) * t * t - c(2.0) * t) * v2)
}
