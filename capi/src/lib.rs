//! gpu-noise's C API: a spec file's or a graph's JSON (the same text `gpu-noise render --spec`
//! and `--graph` read) rendered into the caller's memory on the f64 twin, the SIMD backend or
//! the GPU, points sampled on the twin, and the GPU's error bound. The header,
//! `capi/include/gpu_noise.h`, is cbindgen's from this file.
//!
//! Every function returns a [`GnStatus`]; on an error, [`gn_last_error`] copies the message
//! (the CLI's words: the field or node and the allowed range) for the calling thread. No panic
//! crosses the boundary: one is caught and reported as [`GnStatus::Internal`].

mod noise;

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, catch_unwind};

use gpu_noise::Error;

pub use noise::GnNoise;

/// What a call of this API returns.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GnStatus {
    /// It worked.
    Ok = 0,
    /// A NULL pointer, a window of no texels or outside the image, a backend number that is not
    /// one, or text that is not UTF-8.
    InvalidArgument = 1,
    /// The spec or graph is refused (bad JSON, a field out of range, an unknown node): the
    /// message names the field or the node.
    InvalidSpec = 2,
    /// The output holds fewer values than the window or the points need.
    BufferTooSmall = 3,
    /// The backend could not render: no GPU adapter, a device lost.
    Backend = 4,
    /// A bug in gpu-noise, caught at the boundary.
    Internal = 5,
}

/// The f64 twin, each value rounded to f32 (the reference the others are checked against).
pub const GN_BACKEND_TWIN: u32 = 0;
/// The SIMD backend: the GPU's f32 arithmetic on the CPU's widest lanes.
pub const GN_BACKEND_SIMD: u32 = 1;
/// The best GPU adapter (software ones too: llvmpipe, lavapipe).
pub const GN_BACKEND_GPU: u32 = 2;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A failed call's status and message.
pub(crate) struct Failure(GnStatus, String);

impl Failure {
    pub(crate) fn argument(message: impl Into<String>) -> Self {
        Failure(GnStatus::InvalidArgument, message.into())
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let status = if e.is_bad_input() {
            GnStatus::InvalidSpec
        } else {
            match e {
                Error::Shader(_) => GnStatus::Internal,
                _ => GnStatus::Backend,
            }
        };
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            message.push_str(&format!(": {s}"));
            source = s.source();
        }
        Failure(status, message)
    }
}

/// Runs `f`, records its failure (or a panic) for [`gn_last_error`], and returns its status.
fn guarded(f: impl FnOnce() -> Result<(), Failure>) -> GnStatus {
    let (status, message) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => (GnStatus::Ok, String::new()),
        Ok(Err(Failure(status, message))) => (status, message),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            (
                GnStatus::Internal,
                format!("internal error (a bug): {what}"),
            )
        }
    };
    LAST_ERROR.with(|last| *last.borrow_mut() = message);
    status
}

/// Reads a spec file's or a graph's JSON (`len` bytes at `json`, UTF-8, no NUL needed) into a
/// new noise at `*out`, to free with [`gn_noise_free`].
///
/// # Safety
/// `json` points to `len` readable bytes; `out` to a writable pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_noise_new(
    json: *const c_char,
    len: usize,
    out: *mut *mut GnNoise,
) -> GnStatus {
    guarded(|| {
        if out.is_null() {
            return Err(Failure::argument("out is NULL"));
        }
        // SAFETY: the caller gives `len` readable bytes at a non-NULL `json` (checked inside).
        let text = unsafe { noise::text(json, len) }?;
        let noise = Box::new(GnNoise::from_json(text)?);
        // SAFETY: `out` is non-NULL and writable, as the caller promised.
        unsafe { *out = Box::into_raw(noise) };
        Ok(())
    })
}

/// Frees a noise from [`gn_noise_new`]; NULL is ignored.
///
/// # Safety
/// `noise` came from [`gn_noise_new`] and is not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_noise_free(noise: *mut GnNoise) {
    if !noise.is_null() {
        // SAFETY: it came from Box::into_raw in gn_noise_new and is freed once.
        drop(unsafe { Box::from_raw(noise) });
    }
}

/// The image's size in texels: `size[0..3]` = width, height, depth.
///
/// # Safety
/// `noise` is a live noise; `size` points to 3 writable `uint32_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_noise_size(noise: *const GnNoise, size: *mut u32) -> GnStatus {
    guarded(|| {
        // SAFETY: the caller's pointers, checked for NULL inside.
        let (noise, size) = unsafe { (noise::live(noise)?, noise::slice_mut(size, 3, "size")?) };
        let s = noise.job.size();
        size.copy_from_slice(&[s.width, s.height, s.depth]);
        Ok(())
    })
}

/// The bound on the GPU's and the SIMD backend's error against the twin, per texel
/// (docs/CONVENTIONS.md §7), into `*bound`.
///
/// # Safety
/// `noise` is a live noise; `bound` points to a writable `double`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_noise_error_bound(noise: *const GnNoise, bound: *mut f64) -> GnStatus {
    guarded(|| {
        // SAFETY: the caller's pointers, checked for NULL inside.
        let (noise, bound) = unsafe { (noise::live(noise)?, noise::slice_mut(bound, 1, "bound")?) };
        bound[0] = noise.job.gpu_error_bound().value;
        Ok(())
    })
}

/// Renders the window at image texel `origin[0..3]` of `size[0..3]` texels (x, y, z) on
/// `backend` (`GN_BACKEND_*`) into `out`, which holds `out_len` floats: texel (x, y, z) of the
/// window at `(z * size[1] + y) * size[0] + x`.
///
/// # Safety
/// `noise` is a live noise; `origin` and `size` point to 3 readable `uint32_t`; `out` to
/// `out_len` writable floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_render(
    noise: *const GnNoise,
    backend: u32,
    origin: *const u32,
    size: *const u32,
    out: *mut f32,
    out_len: usize,
) -> GnStatus {
    guarded(|| {
        // SAFETY: the caller's pointers, checked for NULL inside.
        let (noise, origin, size) = unsafe {
            (
                noise::live(noise)?,
                noise::slice(origin, 3, "origin")?,
                noise::slice(size, 3, "size")?,
            )
        };
        let window = noise::window(&noise.job, origin, size)?;
        let needed = usize::try_from(window.texels()).unwrap_or(usize::MAX);
        if out_len < needed {
            return Err(Failure(
                GnStatus::BufferTooSmall,
                format!("out_len: the window needs {needed} floats, out holds {out_len}"),
            ));
        }
        // SAFETY: `out_len` writable floats at `out`, as the caller promised.
        let out = unsafe { noise::slice_mut(out, needed, "out")? };
        noise.render(backend, window, out)
    })
}

/// The twin's values at `count` points (`points[4 * i .. 4 * i + 4]`: x, y, z, w in texel
/// units of the image, the offset already added, as `gpu-noise sample --graph` reads them)
/// into `out`, which holds `out_len` doubles.
///
/// # Safety
/// `noise` is a live noise; `points` points to `4 * count` readable doubles; `out` to
/// `out_len` writable doubles.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_sample(
    noise: *const GnNoise,
    points: *const f64,
    count: usize,
    out: *mut f64,
    out_len: usize,
) -> GnStatus {
    guarded(|| {
        if out_len < count {
            return Err(Failure(
                GnStatus::BufferTooSmall,
                format!("out_len: {count} points need {count} doubles, out holds {out_len}"),
            ));
        }
        let values = count
            .checked_mul(4)
            .ok_or_else(|| Failure::argument("count is too large"))?;
        // SAFETY: the caller's pointers and lengths, checked for NULL inside.
        let (noise, points, out) = unsafe {
            (
                noise::live(noise)?,
                noise::slice(points, values, "points")?,
                noise::slice_mut(out, count, "out")?,
            )
        };
        noise.sample(points, out)
    })
}

/// Copies the calling thread's last error message (empty after a success) into `buf` (`len`
/// bytes, NUL-terminated, cut to fit) and returns the bytes the whole message needs, its NUL
/// included. `buf` may be NULL with `len` 0 to ask the size.
///
/// # Safety
/// `buf` points to `len` writable bytes, or is NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gn_last_error(buf: *mut c_char, len: usize) -> usize {
    LAST_ERROR.with(|last| {
        let message = last.borrow();
        let bytes = message.as_bytes();
        if !buf.is_null() && len > 0 {
            let n = bytes.len().min(len - 1);
            // SAFETY: `buf` holds `len` writable bytes and n + 1 <= len.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), n);
                *buf.add(n) = 0;
            }
        }
        bytes.len() + 1
    })
}
