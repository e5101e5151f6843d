//! Counters of what a renderer wrote and created, so real-time callers (and tests) can see that
//! a new frame with a new offset rewrites one uniform and nothing else.

/// What has been written to and created on the device so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Uniform buffer writes (the library's state and the kernels' parameters).
    pub uniform_writes: u64,
    /// Octave table sets (permutation, gradients, values: 7 KiB) uploaded into slots.
    pub table_uploads: u64,
    /// Colormap tables uploaded.
    pub colormap_uploads: u64,
    /// Bind groups created.
    pub bind_groups_created: u64,
    /// Buffers created.
    pub buffers_created: u64,
    /// Compute pipelines compiled.
    pub pipelines_compiled: u64,
    /// Compute dispatches recorded.
    pub dispatches: u64,
}

/// Implements an operator counter by counter, so the field list is written once.
macro_rules! per_counter {
    ($op:ident, $method:ident, $combine:ident) => {
        impl std::ops::$op for RenderStats {
            type Output = RenderStats;

            fn $method(self, o: RenderStats) -> RenderStats {
                RenderStats {
                    uniform_writes: self.uniform_writes.$combine(o.uniform_writes),
                    table_uploads: self.table_uploads.$combine(o.table_uploads),
                    colormap_uploads: self.colormap_uploads.$combine(o.colormap_uploads),
                    bind_groups_created: self.bind_groups_created.$combine(o.bind_groups_created),
                    buffers_created: self.buffers_created.$combine(o.buffers_created),
                    pipelines_compiled: self.pipelines_compiled.$combine(o.pipelines_compiled),
                    dispatches: self.dispatches.$combine(o.dispatches),
                }
            }
        }
    };
}

// The sum of two renderers' (or stretches') counts.
per_counter!(Add, add, wrapping_add);
// `after - before`: what a frame (or any stretch of work) wrote and created. Each counter
// saturates at 0, so stats of two different renderers cannot underflow.
per_counter!(Sub, sub, saturating_sub);
