// One web worker of the CPU engine (lanes.js): its own instance of the library in wasm renders
// what it is sent on the SIMD lanes and sends it back: a band of a frame's rows (`band`: the
// texels, or with `rgba`, the band's own spec, their colours through the levels: export.js),
// a chunk of the endless world (`chunk`) or a block's iso-surface (`iso`; world3d.js).
import init, { iso_mesh, render_lanes_rows, view_of_lanes, world_chunk } from "./pkg/gpu_noise_web.js";

await init();

const JOBS = {
  band({ spec, first, rows, rgba }) {
    const values = render_lanes_rows(spec, first, rows);
    if (!rgba) return [{ values }, [values.buffer]];
    const view = view_of_lanes(rgba, values);
    const colours = view.rgba();
    view.free();
    return [{ values: colours }, [colours.buffer]];
  },
  chunk({ spec, cx, cy, size, lod }) {
    const surface = world_chunk(spec, cx, cy, size, lod);
    const [stride, samples] = [surface.stride, surface.samples()];
    surface.free();
    return [{ stride, samples }, [samples.buffer]];
  },
  iso({ spec, level }) {
    const mesh = iso_mesh(spec, level);
    const [positions, indices, quads] = [mesh.positions(), mesh.indices(), mesh.quads];
    mesh.free();
    return [{ positions, indices, quads }, [positions.buffer, indices.buffer]];
  },
};

self.onmessage = ({ data }) => {
  try {
    const [answer, transfer] = JOBS[data.job ?? "band"](data);
    self.postMessage({ id: data.id, ...answer }, transfer);
  } catch (e) {
    self.postMessage({ id: data.id, error: String(e?.message ?? e) });
  }
};
self.postMessage({ ready: true });
