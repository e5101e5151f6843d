//! Octave weights (CONVENTIONS §4).

/// Octave weights `a_k / sum_j a_j` with `a_k = persistence^k`, computed so that nothing
/// overflows: for persistence > 1 every amplitude is divided by the largest,
/// `persistence^(octaves-1)`, first. The weights are finite, in [0, 1], and sum to 1.
pub fn octave_weights(persistence: f64, octaves: u32) -> Vec<f64> {
    let n = octaves as usize;
    let mut amplitudes = vec![0.0; n];
    if persistence <= 1.0 {
        let mut a = 1.0;
        for slot in amplitudes.iter_mut() {
            *slot = a;
            a *= persistence;
        }
    } else {
        let shrink = 1.0 / persistence;
        let mut a = 1.0;
        for slot in amplitudes.iter_mut().rev() {
            *slot = a;
            a *= shrink;
        }
    }
    let norm: f64 = amplitudes.iter().sum();
    amplitudes.iter().map(|a| a / norm).collect()
}
