// The 3D view (three.js): the current image as a lit heightmap mesh, vertex normals from the
// library's analytic derivatives (the wasm `surface`, CONVENTIONS §12), orbit controls, a
// height scale. The heights are the image's own values at every `stride`-th texel.
import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

export class View3D {
  /** A renderer on `canvas`, empty until `show`. */
  constructor(canvas) {
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x15181d);
    this.camera = new THREE.PerspectiveCamera(45, 1, 1, 100000);
    this.scene.add(new THREE.HemisphereLight(0xdde8ff, 0x302820, 0.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(-1, 1.2, 0.6);
    this.scene.add(sun);
    // Both sides drawn, and the camera kept above the ground: orbiting under a one-sided mesh
    // showed its back faces as shards.
    this.material = new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.85, metalness: 0, side: THREE.DoubleSide });
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.maxPolarAngle = Math.PI / 2 - 0.05;
    this.controls.addEventListener("change", () => this.draw());
    this.mesh = null;
  }

  /** Builds the mesh of `surface` (the wasm Surface: columns, rows, stride, samples) with
   *  heights `scale` texels per unit of value, colored as the 2D view (`rgba`, `width` texels a
   *  row: its levels and colormap), and draws it; returns what it built. */
  show(surface, scale, keepCamera, rgba, width, tiled = false) {
    const { columns, rows, stride } = surface;
    const samples = surface.samples();
    const positions = new Float32Array(columns * rows * 3);
    const normals = new Float32Array(columns * rows * 3);
    const heights = new Float32Array(columns * rows);
    const colors = new Float32Array(columns * rows * 3);
    const [cx, cz] = [((columns - 1) * stride) / 2, ((rows - 1) * stride) / 2];
    for (let n = 0; n < columns * rows; n++) {
      const [v, dx, dy] = [samples[3 * n], samples[3 * n + 1], samples[3 * n + 2]];
      heights[n] = v;
      positions.set([(n % columns) * stride - cx, v * scale, Math.floor(n / columns) * stride - cz], 3 * n);
      // The surface y = scale v(x, z): its normal is (-scale dv/dx, 1, -scale dv/dz), z along
      // the image's rows.
      const [a, b] = [-scale * dx, -scale * dy];
      const length = Math.hypot(a, 1, b);
      normals.set([a / length, 1 / length, b / length], 3 * n);
      const texel = 4 * (Math.floor(n / columns) * stride * width + (n % columns) * stride);
      colors.set([rgba[texel] / 255, rgba[texel + 1] / 255, rgba[texel + 2] / 255], 3 * n);
    }
    const index = [];
    for (let j = 0; j + 1 < rows; j++) {
      for (let i = 0; i + 1 < columns; i++) {
        const n = j * columns + i;
        index.push(n, n + columns, n + 1, n + 1, n + columns, n + columns + 1);
      }
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    geometry.setAttribute("normal", new THREE.BufferAttribute(normals, 3));
    geometry.setAttribute("color", new THREE.BufferAttribute(colors, 3));
    geometry.setIndex(index);
    if (this.mesh) {
      this.scene.remove(this.mesh);
      this.mesh.traverse((m) => m.geometry?.dispose());
    }
    // A tiled spec repeats every image width and height: four copies show the seams meet.
    const period = [columns * stride, rows * stride];
    const copies = tiled ? [[0, 0], [1, 0], [0, 1], [1, 1]] : [[0, 0]];
    this.mesh = new THREE.Group();
    for (const [i, j] of copies) {
      const copy = new THREE.Mesh(geometry, this.material);
      copy.position.set((i - (tiled ? 0.5 : 0)) * period[0], 0, (j - (tiled ? 0.5 : 0)) * period[1]);
      this.mesh.add(copy);
    }
    this.scene.add(this.mesh);
    if (!keepCamera) {
      const span = Math.max(columns, rows) * stride * (tiled ? 2 : 1);
      this.camera.position.set(0, span * 0.7, span * 0.9);
      this.controls.target.set(0, 0, 0);
      this.controls.update();
    }
    this.draw();
    return { columns, rows, stride, heights, normals, copies: copies.length };
  }

  draw() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (w > 0 && h > 0) {
      this.renderer.setSize(w, h, false);
      this.camera.aspect = w / h;
      this.camera.updateProjectionMatrix();
    }
    this.renderer.render(this.scene, this.camera);
  }
}
