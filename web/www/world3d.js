// The endless world in 3D: chunks of the spec's world (the wasm `world_chunk`, the library's
// `Job::chunk`: neighbours at one level share their border texels bit for bit, a chunk at level
// L holds every 2^L-th texel of level 0) around a fly camera, nearer chunks finer. The chunks
// form a quadtree: root chunks of CHUNK quads at level TOP_LOD around the camera, each split
// into its four children a level finer while the camera is nearer than SPLIT spans. Each chunk
// is a mesh lit by the library's analytic slopes, coloured by the page's levels, with a skirt
// down from its borders so that neighbours at different levels leave no crack. The camera flies
// (three.js FlyControls: WASD, R/F down and up, drag to look) and stays above the ground. A 3D
// spec's world is blocks around the camera instead, each the iso-surface of its values (the
// wasm `iso_mesh`: surface nets, neighbouring blocks meeting exactly). Chunks and blocks render
// on web workers (lanes-worker.js), nearest first, so the page keeps its frame rate.
import * as THREE from "three";
import { FlyControls } from "three/addons/controls/FlyControls.js";

/** Quads along a chunk's side (CHUNK + 1 vertices). */
export const CHUNK = 32;
/** The root chunks' level: CHUNK 2^TOP_LOD texels a side. */
const TOP_LOD = 5;
/** Root chunks on each side of the camera's. */
const ROOTS = 1;
/** A chunk splits while the camera is nearer its centre than SPLIT times its span. */
const SPLIT = 2;
/** Seconds between choices of the chunks wanted. */
const CHOOSE_EVERY = 0.25;
/** A 3D spec's world: blocks of BLOCK^3 texels (level 0), BLOCKS each side of the camera's
 *  horizontally and LAYERS above and below, each the iso-surface of its values. */
export const BLOCK = 32;
const BLOCKS = 2;
const LAYERS = 1;

export class WorldView {
  /** The world of the spec on `view3d`'s renderer and scene: `chunkOf(cx, cy, lod)` resolves
   *  to a chunk's surface (`{stride, samples}`, [value, d/dx, d/dy] a vertex, slopes per chunk
   *  texel), `isoOf(bx, by, bz)` (a 3D spec's) to a block's iso-surface (`{positions, indices,
   *  quads}`), both rendered by web workers, at most `inFlight` at a time; `colorsOf(values)`
   *  gives the vertices' RGBA through the page's levels; `scale` texels of height per unit. */
  constructor(view3d, { chunkOf, colorsOf, scale, isoOf = null, inFlight = 2 }) {
    Object.assign(this, { view3d, chunkOf, colorsOf, scale, isoOf, inFlight });
    this.pending = new Set(); // keys being rendered by a worker
    this.volume = isoOf !== null;
    this.rock = new THREE.MeshStandardMaterial({ color: 0x9a8f80, roughness: 0.9, metalness: 0, side: THREE.DoubleSide });
    this.meshes = new Map(); // "cx,cy,lod" -> {mesh, chunk}
    this.wanted = [];
    this.queue = [];
    this.group = new THREE.Group();
    view3d.scene.add(this.group);
    // The roots' ring (a volume's blocks) ends ROOTS + 1/2 root spans (BLOCKS + 1/2 blocks)
    // away: fog hides the edge.
    const reach = isoOf !== null ? (BLOCKS + 0.5) * BLOCK : (ROOTS + 0.5) * (CHUNK << TOP_LOD);
    view3d.scene.fog = isoOf !== null
      ? new THREE.Fog(view3d.scene.background, 0.75 * reach, 1.3 * reach)
      : new THREE.Fog(view3d.scene.background, 0.4 * reach, reach);
    if (view3d.mesh) view3d.mesh.visible = false;
    view3d.controls.enabled = false;
    const camera = view3d.camera;
    camera.position.set(0, this.volume ? BLOCK / 2 : 1.5 * scale + 16, 0);
    camera.lookAt(200, 0, 200);
    this.fly = new FlyControls(camera, view3d.canvas);
    Object.assign(this.fly, { dragToLook: true, movementSpeed: 120, rollSpeed: 0.6 });
    // FlyControls reads the keys on the whole window: it flies only while the 3D canvas has
    // the focus (a click on it), so typing in a field moves no camera.
    const canvas = view3d.canvas;
    canvas.tabIndex = 0;
    this.focus = () => (this.fly.enabled = true);
    this.blur = () => (this.fly.enabled = false);
    this.fly.enabled = document.activeElement === canvas;
    canvas.addEventListener("focus", this.focus);
    canvas.addEventListener("blur", this.blur);
    this.clock = new THREE.Clock();
    this.sinceChoice = Infinity;
    this.ground = 0; // the ground's height under the camera
    this.running = true;
    this.errors = [];
    requestAnimationFrame(() => this.frame());
  }

  /** Leaves the world: its meshes freed, the image's mesh and orbit controls back. */
  stop() {
    this.running = false;
    this.fly.dispose();
    this.view3d.canvas.removeEventListener("focus", this.focus);
    this.view3d.canvas.removeEventListener("blur", this.blur);
    for (const { mesh } of this.meshes.values()) mesh.geometry.dispose();
    this.rock.dispose();
    this.view3d.scene.remove(this.group);
    this.view3d.scene.fog = null;
    this.view3d.controls.enabled = true;
    if (this.view3d.mesh) this.view3d.mesh.visible = true;
  }

  /** Whether every wanted chunk is built. */
  get settled() {
    return this.queue.length === 0 && this.pending.size === 0 && this.wanted.length > 0 && this.wanted.every((k) => this.meshes.has(k));
  }

  /** The built chunks: coordinates, level, vertex spacing and heights (values), for tests. */
  chunks() {
    return [...this.meshes.values()].map(({ chunk }) => chunk);
  }

  frame() {
    if (!this.running) return;
    const dt = Math.min(this.clock.getDelta(), 0.1);
    this.fly.update(dt);
    if (!this.volume) this.keepAboveGround();
    this.sinceChoice += dt;
    if (this.sinceChoice >= CHOOSE_EVERY) {
      this.sinceChoice = 0;
      this.choose();
    }
    this.startBuilds();
    if (this.queue.length === 0 && this.pending.size === 0) this.dropUnwanted();
    this.view3d.draw();
    requestAnimationFrame(() => this.frame());
  }

  /** The chunks the camera wants (the quadtree's leaves, or a volume's blocks), nearest first
   *  into the queue. */
  choose() {
    const p = this.view3d.camera.position;
    if (this.volume) {
      this.chooseBlocks(p);
      return;
    }
    const leaves = [];
    const visit = (cx, cy, lod) => {
      const span = CHUNK << lod;
      const d = Math.hypot(p.x - (cx + 0.5) * span, p.z - (cy + 0.5) * span, p.y - this.ground);
      if (lod > 0 && d < SPLIT * span) {
        for (const [a, b] of [[0, 0], [1, 0], [0, 1], [1, 1]]) visit(2 * cx + a, 2 * cy + b, lod - 1);
      } else {
        leaves.push({ key: `${cx},${cy},${lod}`, d });
      }
    };
    const root = CHUNK << TOP_LOD;
    const [rx, ry] = [Math.floor(p.x / root), Math.floor(p.z / root)];
    for (let j = -ROOTS; j <= ROOTS; j++) {
      for (let i = -ROOTS; i <= ROOTS; i++) visit(rx + i, ry + j, TOP_LOD);
    }
    this.setWanted(leaves);
  }

  /** The chunks wanted (`{key, d}`, d the distance), those neither built nor being built
   *  queued nearest first. */
  setWanted(leaves) {
    this.wanted = leaves.map((l) => l.key);
    const missing = leaves.filter((l) => !this.meshes.has(l.key) && !this.pending.has(l.key));
    this.queue = missing.sort((a, b) => a.d - b.d).map((l) => l.key);
  }

  /** Sends queued chunks to the workers while fewer than `inFlight` are out; each becomes a
   *  mesh when it comes back (where the world still runs). */
  startBuilds() {
    while (this.pending.size < this.inFlight && this.queue.length > 0) {
      const key = this.queue.shift();
      this.pending.add(key);
      const [a, b, c] = key.split(",").map(Number);
      const rendered = this.volume ? this.isoOf(a, b, c) : this.chunkOf(a, b, c);
      rendered
        .then((data) => this.running && (this.volume ? this.placeBlock(key, data) : this.placeChunk(key, data)))
        .catch((e) => this.errors.push(String(e.message ?? e)))
        .finally(() => this.pending.delete(key));
    }
  }

  /** A volume's blocks around the camera (image z is up). */
  chooseBlocks(p) {
    const [bx, by, bz] = [Math.floor(p.x / BLOCK), Math.floor(p.z / BLOCK), Math.floor(p.y / BLOCK)];
    const leaves = [];
    for (let k = -LAYERS; k <= LAYERS; k++) {
      for (let j = -BLOCKS; j <= BLOCKS; j++) {
        for (let i = -BLOCKS; i <= BLOCKS; i++) leaves.push({ key: `${bx + i},${by + j},${bz + k},v`, d: Math.hypot(i, j, k) });
      }
    }
    this.setWanted(leaves);
  }

  /** Block `key`'s iso-surface: image (x, y, z) at (x, z, y) here, z up; normals from the
   *  triangles. */
  placeBlock(key, { positions: source, indices, quads }) {
    const [bx, by, bz] = key.split(",").slice(0, 3).map(Number);
    const positions = new Float32Array(source.length);
    for (let v = 0; v < source.length; v += 3) {
      positions[v] = bx * BLOCK + source[v];
      positions[v + 1] = bz * BLOCK + source[v + 2];
      positions[v + 2] = by * BLOCK + source[v + 1];
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    geometry.setIndex(Array.from(indices));
    geometry.computeVertexNormals();
    const mesh = new THREE.Mesh(geometry, this.rock);
    this.group.add(mesh);
    this.meshes.set(key, { mesh, chunk: { bx, by, bz, quads, vertices: positions.length / 3, positions: Array.from(source) } });
  }

  /** Chunk `key`'s mesh: its vertices at world texels, heights `scale` texels a unit, normals
   *  from the analytic slopes (per world texel: the chunk's over its spacing), a skirt. */
  placeChunk(key, { stride, samples }) {
    const [cx, cy, lod] = key.split(",").map(Number);
    const n = CHUNK + 1;
    const heights = new Float32Array(n * n);
    for (let k = 0; k < n * n; k++) heights[k] = samples[3 * k];
    const rgba = this.colorsOf(heights);
    const geometry = chunkGeometry({ cx, cy, stride, samples, rgba, scale: this.scale });
    const mesh = new THREE.Mesh(geometry, this.view3d.material);
    this.group.add(mesh);
    this.meshes.set(key, { mesh, chunk: { cx, cy, lod, stride, heights: Array.from(heights) } });
  }

  /** Meshes no longer wanted, once every wanted one is built (so no hole opens meanwhile). */
  dropUnwanted() {
    const wanted = new Set(this.wanted);
    for (const [key, { mesh }] of this.meshes) {
      if (wanted.has(key)) continue;
      this.group.remove(mesh);
      mesh.geometry.dispose();
      this.meshes.delete(key);
    }
  }

  /** The ground's height under the camera (the finest built chunk there), the camera kept a
   *  little above it. */
  keepAboveGround() {
    const p = this.view3d.camera.position;
    let best = null;
    for (const { chunk } of this.meshes.values()) {
      const [u, v] = [p.x / chunk.stride - chunk.cx * CHUNK, p.z / chunk.stride - chunk.cy * CHUNK];
      if (u < 0 || v < 0 || u > CHUNK || v > CHUNK || (best && best.stride <= chunk.stride)) continue;
      best = { stride: chunk.stride, h: chunk.heights[Math.round(v) * (CHUNK + 1) + Math.round(u)] };
    }
    this.ground = best ? best.h * this.scale : 0;
    if (p.y < this.ground + 4) p.y = this.ground + 4;
  }
}

/** A chunk's geometry: (CHUNK + 1)^2 vertices and a skirt of one more ring, lowered. */
function chunkGeometry({ cx, cy, stride, samples, rgba, scale }) {
  const n = CHUNK + 1;
  const ring = 4 * CHUNK;
  const count = n * n + ring;
  const [positions, normals, colors] = [new Float32Array(3 * count), new Float32Array(3 * count), new Float32Array(3 * count)];
  const put = (k, i, j, drop) => {
    const [v, dx, dy] = [samples[3 * k], samples[3 * k + 1] / stride, samples[3 * k + 2] / stride];
    const at = drop ? count - ring + (drop - 1) : k;
    positions.set([(cx * CHUNK + i) * stride, v * scale - (drop ? 2 * stride : 0), (cy * CHUNK + j) * stride], 3 * at);
    const [a, b] = [-scale * dx, -scale * dy];
    const length = Math.hypot(a, 1, b);
    normals.set([a / length, 1 / length, b / length], 3 * at);
    colors.set([rgba[4 * k] / 255, rgba[4 * k + 1] / 255, rgba[4 * k + 2] / 255], 3 * at);
  };
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) put(j * n + i, i, j, 0);
  const index = [];
  for (let j = 0; j < CHUNK; j++) {
    for (let i = 0; i < CHUNK; i++) {
      const k = j * n + i;
      index.push(k, k + n, k + 1, k + 1, k + n, k + n + 1);
    }
  }
  // The border walked once around; each border vertex gets a lowered twin, and the two rings
  // are joined (drawn from both sides by the material).
  const border = [];
  for (let i = 0; i < CHUNK; i++) border.push([i, 0]);
  for (let j = 0; j < CHUNK; j++) border.push([CHUNK, j]);
  for (let i = CHUNK; i > 0; i--) border.push([i, CHUNK]);
  for (let j = CHUNK; j > 0; j--) border.push([0, j]);
  border.forEach(([i, j], s) => put(j * n + i, i, j, s + 1));
  border.forEach(([i, j], s) => {
    const [t, u] = [border[(s + 1) % ring], s];
    const [top0, top1] = [j * n + i, t[1] * n + t[0]];
    const [low0, low1] = [count - ring + u, count - ring + ((s + 1) % ring)];
    index.push(top0, low0, top1, top1, low0, low1);
  });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
  geometry.setAttribute("normal", new THREE.BufferAttribute(normals, 3));
  geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
  geometry.setIndex(index);
  return geometry;
}
