//! Timing rounds: every contender once per round, interleaved, and medians over rounds.

use std::time::Duration;

use gpu_noise::Result;

/// Times each contender once per round, `repeat` rounds after a warm-up round, interleaved so
/// that a slow spell of a shared machine falls on all of them alike; times per contender.
pub fn interleaved(
    repeat: u32,
    contenders: &mut [&mut dyn FnMut() -> Result<Duration>],
) -> Result<Vec<Vec<Duration>>> {
    let mut times = vec![Vec::new(); contenders.len()];
    for round in 0..=repeat {
        for (c, t) in contenders.iter_mut().zip(&mut times) {
            let d = c()?;
            if round > 0 {
                t.push(d);
            }
        }
    }
    Ok(times)
}

pub fn median_f64(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median over rounds of `reference[i] / times[i]`: how many times faster than the reference.
pub fn speedup(times: &[Duration], reference: &[Duration]) -> f64 {
    median_f64(
        times
            .iter()
            .zip(reference)
            .map(|(t, r)| r.as_secs_f64() / t.as_secs_f64())
            .collect(),
    )
}
