// Unity (or any .NET): gpu-noise's C API through P/Invoke, for heights generated on the CPU
// (the f64 twin or the SIMD backend) without a GPU. Build the library with
// `cargo build --release -p gpu-noise-c` and put libgpu_noise_c.so (gpu_noise_c.dll on Windows,
// libgpu_noise_c.dylib on macOS) under Assets/Plugins/. The declarations mirror
// capi/include/gpu_noise.h. Not compiled here (no .NET in CI); the C API itself is tested from C.
using System;
using System.Runtime.InteropServices;
using System.Text;

public static class GpuNoiseNative
{
    const string Lib = "gpu_noise_c";

    public const uint BackendTwin = 0;
    public const uint BackendSimd = 1;
    public const uint BackendGpu = 2;

    public enum Status { Ok = 0, InvalidArgument = 1, InvalidSpec = 2, BufferTooSmall = 3, Backend = 4, Internal = 5 }

    [DllImport(Lib)] static extern Status gn_noise_new(byte[] json, UIntPtr len, out IntPtr noise);
    [DllImport(Lib)] static extern void gn_noise_free(IntPtr noise);
    [DllImport(Lib)] static extern Status gn_noise_size(IntPtr noise, uint[] size);
    [DllImport(Lib)] static extern Status gn_render(IntPtr noise, uint backend, uint[] origin, uint[] size, float[] output, UIntPtr outLen);
    [DllImport(Lib)] static extern UIntPtr gn_last_error(byte[] buffer, UIntPtr len);

    /// The heights of a spec or graph (the JSON `gpu-noise render --spec` reads), row after row.
    public static float[] Render(string json, uint backend, out uint width, out uint height)
    {
        byte[] text = Encoding.UTF8.GetBytes(json);
        Check(gn_noise_new(text, (UIntPtr)text.Length, out IntPtr noise));
        try
        {
            var size = new uint[3];
            Check(gn_noise_size(noise, size));
            width = size[0];
            height = size[1];
            var heights = new float[size[0] * size[1] * size[2]];
            Check(gn_render(noise, backend, new uint[3], size, heights, (UIntPtr)heights.Length));
            return heights;
        }
        finally
        {
            gn_noise_free(noise);
        }
    }

    static void Check(Status status)
    {
        if (status == Status.Ok) return;
        var buffer = new byte[1024];
        gn_last_error(buffer, (UIntPtr)buffer.Length);
        string message = Encoding.UTF8.GetString(buffer).TrimEnd('\0');
        throw new ArgumentException($"gpu-noise: {status}: {message}");
    }
}
