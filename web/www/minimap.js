// The editor's minimap (FastNoise2's Node Editor has one): every node as a box and the part of
// the canvas in view as a frame, scaled together into a small canvas in the editor's corner.
// A click or a drag on it centres the view on that point, at the same zoom.

const WIDTH = 180;
const HEIGHT = 120;
const PAD = 6;

/** The boxes `[x0, y0, x1, y1]` (canvas coordinates) of the nodes and of the view, the scale
 *  and offset that fit them all into the minimap, and each node's box by name. */
function layout(editor) {
  const nodes = editor.nodeBoxes();
  const view = editor.viewBox();
  const all = [...nodes.map((n) => n.box), view];
  const x0 = Math.min(...all.map((b) => b[0]));
  const y0 = Math.min(...all.map((b) => b[1]));
  const x1 = Math.max(...all.map((b) => b[2]));
  const y1 = Math.max(...all.map((b) => b[3]));
  const scale = Math.min((WIDTH - 2 * PAD) / Math.max(1, x1 - x0), (HEIGHT - 2 * PAD) / Math.max(1, y1 - y0));
  // Centred in the minimap.
  const ox = PAD + ((WIDTH - 2 * PAD) - (x1 - x0) * scale) / 2 - x0 * scale;
  const oy = PAD + ((HEIGHT - 2 * PAD) - (y1 - y0) * scale) / 2 - y0 * scale;
  return { nodes, view, scale, ox, oy };
}

export class Minimap {
  constructor(editor, container) {
    this.editor = editor;
    this.canvas = document.createElement("canvas");
    Object.assign(this.canvas, { id: "minimap", width: WIDTH, height: HEIGHT, title: "minimap: every node, the view framed; click or drag to move the view there" });
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", "minimap of the graph's nodes");
    container.appendChild(this.canvas);
    this.fit = null;
    this.pending = false;
    // Drawflow pans the canvas on a press anywhere in its container: the minimap's own presses
    // stop here.
    this.canvas.addEventListener("mousedown", (e) => {
      e.stopPropagation();
      e.preventDefault();
      // The layout of the press holds for the whole drag (the view's frame moves under it).
      const fit = layout(editor);
      this.moveTo(e, fit);
      const drag = (m) => this.moveTo(m, fit);
      const up = () => {
        window.removeEventListener("mousemove", drag);
        window.removeEventListener("mouseup", up);
      };
      window.addEventListener("mousemove", drag);
      window.addEventListener("mouseup", up);
    });
    for (const event of ["translate", "zoom", "nodeMoved", "nodeCreated", "nodeRemoved", "nodeSelected", "nodeUnselected", "import"]) {
      editor.df.on(event, () => this.redraw());
    }
    window.addEventListener("resize", () => this.redraw());
    this.redraw();
  }

  /** Draws again at the next frame (many events arrive together). */
  redraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  draw() {
    const fit = layout(this.editor);
    this.fit = fit;
    const g = this.canvas.getContext("2d");
    g.clearRect(0, 0, WIDTH, HEIGHT);
    g.fillStyle = "#181a1ecc";
    g.fillRect(0, 0, WIDTH, HEIGHT);
    // By element id: an undo can remove the selected node before Drawflow unselects it.
    const selected = this.editor.df.node_selected?.id;
    for (const { id, name, box } of fit.nodes) {
      const [x, y, w, h] = this.rect(box);
      g.fillStyle = `node-${id}` === selected ? "#6aaaff" : name === this.editor.top.output ? "#d0a040" : "#8a8f99";
      g.fillRect(x, y, Math.max(2, w), Math.max(2, h));
    }
    const [x, y, w, h] = this.rect(fit.view);
    g.strokeStyle = "#ffffff";
    g.lineWidth = 1;
    g.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
    this.canvas.dataset.nodes = String(fit.nodes.length);
  }

  /** A canvas box as a minimap rectangle `[x, y, w, h]`. */
  rect([x0, y0, x1, y1]) {
    const { scale, ox, oy } = this.fit;
    return [ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale];
  }

  /** The client point at the centre of node `name`'s box on the minimap (for tests). */
  pointOf(name) {
    this.draw();
    const node = this.fit.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node "${name}"`);
    const [x, y, w, h] = this.rect(node.box);
    const r = this.canvas.getBoundingClientRect();
    return [r.left + x + w / 2, r.top + y + h / 2];
  }

  /** Centres the view on the canvas point under the mouse event `e` in layout `fit`. */
  moveTo(e, { scale, ox, oy }) {
    const r = this.canvas.getBoundingClientRect();
    const x = (e.clientX - r.left - ox) / scale;
    const y = (e.clientY - r.top - oy) / scale;
    this.editor.centreOn(x, y);
  }
}
