// The CPU engine on every core: web workers (lanes-worker.js), each with its own instance of
// the library in wasm, render bands of a frame's rows on the SIMD lanes; the page joins them
// and builds the view (levels, statistics, a normal map) as the single-threaded lanes do, so
// the frame is the same, texel for texel. It offers the `Previewer` interface app.js uses.
import { view_of_lanes } from "./pkg/gpu_noise_web.js";

/** Workers at most: beyond this the bands get thin and the joins cost more than they save. */
const MAX_WORKERS = 8;

export class LaneWorkers {
  /** Starts one worker per core (up to MAX_WORKERS); rejects where workers cannot start. */
  static async open(cores = navigator.hardwareConcurrency ?? 1) {
    const count = Math.max(1, Math.min(MAX_WORKERS, cores));
    const workers = [];
    try {
      for (let i = 0; i < count; i++) workers.push(await startWorker());
    } catch (e) {
      workers.forEach((w) => w.terminate());
      throw e;
    }
    return new LaneWorkers(workers);
  }

  constructor(workers) {
    this.workers = workers;
    this.gpu = false;
    this.twin = false;
    this.backend = `CPU SIMD lanes in wasm (${workers.length} workers)`;
    this.sent = 0;
    this.waiting = new Map(); // id -> its promise's reject, until the answer comes
  }

  /** A frame of `specText`: its rows split into one band per worker. */
  async render(specText) {
    const height = JSON.parse(specText).size?.[1] ?? 1;
    const count = Math.min(this.workers.length, height);
    const rows = Math.ceil(height / count);
    const bands = [];
    for (let k = 0; k < count && k * rows < height; k++) {
      const first = k * rows;
      bands.push(this.band(this.workers[k], specText, first, Math.min(rows, height - first)));
    }
    const parts = await Promise.all(bands);
    const texels = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      texels.set(p, at);
      at += p.length;
    }
    return view_of_lanes(specText, texels);
  }

  /** Rows `first..first + rows` of `spec` on `worker`: their texels, or with `rgba` (the
   *  spec at the band's size) their colours through the spec's levels. */
  async band(worker, spec, first, rows, rgba = null) {
    return (await this.ask(worker, { job: "band", spec, first, rows, rgba })).values;
  }

  /** Job `message.job` (lanes-worker.js) on `worker` (the next one in turn where not given):
   *  its answer, or its error as a rejection. */
  ask(worker, message) {
    worker ??= this.workers[this.sent % this.workers.length];
    const id = ++this.sent;
    return new Promise((ok, fail) => {
      const answer = ({ data }) => {
        if (data.id !== id) return;
        worker.removeEventListener("message", answer);
        this.waiting.delete(id);
        if (data.error) fail(new Error(data.error));
        else ok(data);
      };
      worker.addEventListener("message", answer);
      this.waiting.set(id, fail);
      worker.postMessage({ id, ...message });
    });
  }

  /** Stops the workers; what was still asked of them fails with why (an export or the world
   *  whose workers were the page's engine, switched meanwhile). */
  free() {
    this.workers.forEach((w) => w.terminate());
    this.workers = [];
    for (const fail of this.waiting.values()) fail(new Error("the CPU workers were closed (the engine changed or the work was dropped)"));
    this.waiting.clear();
  }
}

/** Workers for work beside the view (an export, the endless world): the page's own where its
 *  engine is the CPU lanes, else new ones (closed by `done`). */
export async function laneWorkersFor(previewer) {
  if (previewer instanceof LaneWorkers) return { pool: previewer, done: () => {} };
  const pool = await LaneWorkers.open();
  return { pool, done: () => pool.free() };
}

/** A worker whose library is loaded (it says `ready`). */
function startWorker() {
  return new Promise((ok, fail) => {
    const worker = new Worker(new URL("./lanes-worker.js", import.meta.url), { type: "module" });
    worker.addEventListener("message", ({ data }) => data.ready && ok(worker));
    worker.addEventListener("error", (e) => fail(new Error(`a CPU worker failed to start: ${e.message}`)));
  });
}
