//! What the examples share: the caller's own device, as a game or tool would open it, and
//! plain buffer helpers.

/// The caller's device: the best adapter `WGPU_BACKEND` / `WGPU_ADAPTER_NAME` allow, with its
/// own limits.
pub fn open_device(label: &str) -> Result<(wgpu::Device, wgpu::Queue), Box<dyn std::error::Error>> {
    let choice = gpu_noise::gpu::AdapterChoice::from_env()?;
    let instance = gpu_noise::low_level::gpu::new_instance(&choice);
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        ..Default::default()
    }))?;
    let limits = adapter.limits();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some(label),
        required_limits: limits,
        ..Default::default()
    }))?;
    println!("adapter: {}", adapter.get_info().name);
    Ok((device, queue))
}

/// An unmapped buffer.
pub fn buffer(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage,
        mapped_at_creation: false,
    })
}

/// Copies a buffer (COPY_SRC) to the host as f32s, blocking; empty if mapping failed.
pub fn read_f32(device: &wgpu::Device, queue: &wgpu::Queue, source: &wgpu::Buffer) -> Vec<f32> {
    let size = source.size();
    let staging = buffer(
        device,
        "readback",
        size,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(source, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);
    staging.slice(..).map_async(wgpu::MapMode::Read, |_| {});
    let _ = device.poll(wgpu::PollType::wait_indefinitely());
    let data = match staging.slice(..).get_mapped_range() {
        Ok(view) => bytemuck::cast_slice::<u8, f32>(&view).to_vec(),
        Err(_) => Vec::new(),
    };
    staging.unmap();
    data
}
