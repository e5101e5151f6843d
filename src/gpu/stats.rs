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

/// `after - before`: what a frame (or any stretch of work) wrote and created. Each counter
/// saturates at 0, so stats of two different renderers cannot underflow.
impl std::ops::Sub for RenderStats {
    type Output = RenderStats;

    fn sub(self, o: RenderStats) -> RenderStats {
        RenderStats {
            uniform_writes: self.uniform_writes.saturating_sub(o.uniform_writes),
            table_uploads: self.table_uploads.saturating_sub(o.table_uploads),
            colormap_uploads: self.colormap_uploads.saturating_sub(o.colormap_uploads),
            bind_groups_created: self
                .bind_groups_created
                .saturating_sub(o.bind_groups_created),
            buffers_created: self.buffers_created.saturating_sub(o.buffers_created),
            pipelines_compiled: self.pipelines_compiled.saturating_sub(o.pipelines_compiled),
            dispatches: self.dispatches.saturating_sub(o.dispatches),
        }
    }
}

impl std::ops::Add for RenderStats {
    type Output = RenderStats;

    fn add(self, o: RenderStats) -> RenderStats {
        RenderStats {
            uniform_writes: self.uniform_writes + o.uniform_writes,
            table_uploads: self.table_uploads + o.table_uploads,
            colormap_uploads: self.colormap_uploads + o.colormap_uploads,
            bind_groups_created: self.bind_groups_created + o.bind_groups_created,
            buffers_created: self.buffers_created + o.buffers_created,
            pipelines_compiled: self.pipelines_compiled + o.pipelines_compiled,
            dispatches: self.dispatches + o.dispatches,
        }
    }
}
