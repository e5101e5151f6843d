// Unity: fills a float array (and a RFloat texture) with gpu-noise heights through
// GpuNoiseHeights.compute. Not run here (no Unity in CI); the compute shader is compiled by
// glslang in tests/suite/engines.rs. On --lattice table, put gpu_noise.hlsl.tables under
// Resources/ renamed gpu_noise_tables.bytes (Unity reads binary TextAssets by that extension).
using UnityEngine;

public class GpuNoiseHeights : MonoBehaviour
{
    public ComputeShader shader;
    public Vector2Int origin;
    public Vector2Int size = new Vector2Int(512, 512);

    public Texture2D Render()
    {
        int kernel = shader.FindKernel("Heights");
        var heights = new ComputeBuffer(size.x * size.y, sizeof(float));
        shader.SetBuffer(kernel, "heights", heights);
        ComputeBuffer tables = null;
        var tableAsset = Resources.Load<TextAsset>("gpu_noise_tables");
        if (tableAsset != null) // the prime and hash lattices read no tables
        {
            byte[] bytes = tableAsset.bytes;
            tables = new ComputeBuffer(bytes.Length / 4, 4, ComputeBufferType.Raw);
            tables.SetData(bytes);
            shader.SetBuffer(kernel, "gn_noise_tables", tables);
        }
        shader.SetInts("origin", origin.x, origin.y);
        shader.SetInts("size", size.x, size.y);
        shader.Dispatch(kernel, (size.x + 7) / 8, (size.y + 7) / 8, 1);

        var values = new float[size.x * size.y];
        heights.GetData(values);
        heights.Release();
        tables?.Release();
        var texture = new Texture2D(size.x, size.y, TextureFormat.RFloat, false);
        texture.SetPixelData(values, 0);
        texture.Apply();
        return texture;
    }
}
