import { wireAddMenu } from "./add-menu.js";
import { Minimap } from "./minimap.js";
import { drawThumbnails } from "./thumbnails.js";
import { parseSpec, specText } from "./spec.js";

// The node editor: a graph (CONVENTIONS §13) as nodes and wires on Drawflow's canvas (the npm
// package `drawflow`, loaded as a classic script: window.Drawflow). Node types, their inputs
// and parameters (type, default, range, doc) come from the library's node table through the
// wasm module (`controls().nodes`), so a new node type or parameter needs no change here.
// Each node shows a thumbnail of its own output over the whole view (the part of the graph that
// feeds it, on the CPU twin), drawn in the background node by node so editing stays responsive,
// with how long it took; a node whose own fields are wrong says so, and the nodes that read it
// wait on it instead of failing too. The graph's JSON text stays the source of truth the page
// renders: every edit writes it, and loading a text rebuilds the canvas.

/** Ports of a list input (`add`'s inputs, a warp's per-axis displacements): unconnected ones
 *  are left out of the list. */
const LIST_PORTS = 4;
/** Where the session (undo history with node positions) is kept across reloads. */
const SESSION_KEY = "gpu-noise.editor.session";
/** Undo steps kept across a reload. */
const SESSION_STEPS = 50;
const THUMB = 96;
/** Each node's preview settings (name to `{scale, seed}`), kept across reloads. */
const PREVIEWS_KEY = "gpu-noise.editor.previews";
/** The preview areas offered, in view widths. */
const PREVIEW_SCALES = [0.25, 0.5, 1, 2, 4, 16];
const COLUMN = 250;
const ROW = 170;

/** The input ports of a node type, in order: `{input, list}` each. */
function portsOf(type) {
  return type.inputs.flatMap((input) => {
    const count = input.arity === "one" ? 1 : LIST_PORTS;
    return Array.from({ length: count }, () => ({ input: input.name, list: input.arity !== "one" }));
  });
}

/** Names node `id`'s input ports on the canvas (`source`, `by[0]`...: shown beside each dot
 *  and as its tooltip) and its output. */
function namePorts(id, type) {
  const element = document.getElementById(`node-${id}`);
  portsOf(type).forEach((port, k) => {
    const dot = element?.querySelector(`.inputs .input_${k + 1}`);
    const index = port.list ? portsOf(type).slice(0, k).filter((p) => p.input === port.input).length : null;
    const name = index === null ? port.input : `${port.input}[${index}]`;
    dot?.setAttribute("data-name", name);
    dot?.setAttribute("title", `input ${name}`);
  });
  element?.querySelector(".outputs .output_1")?.setAttribute("title", "output: drag to an input");
}

/** A parameter's value as the field shows it: JSON for lists, the text of a number. */
function fieldText(value) {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  return typeof value === "bigint" ? value.toString() : JSON.stringify(value);
}

/** A field's text as the parameter's JSON value, or undefined (absent: the default). */
function fieldValue(param, text) {
  const t = String(text ?? "").trim();
  if (t === "") return undefined;
  switch (param.type) {
    case "number":
    case "whole":
      return Number.isNaN(Number(t)) ? t : Number(t);
    case "seed":
      return /^\d+$/.test(t) && !Number.isSafeInteger(Number(t)) ? BigInt(t) : Number.isNaN(Number(t)) ? t : Number(t);
    case "choice":
      return t;
    case "flag":
      return t === "true" ? true : t === "false" ? false : t;
    case "orientation":
      return Number.isNaN(Number(t)) ? t : Number(t);
    default:
      try {
        return JSON.parse(t);
      } catch {
        return t; // the graph reader names the node and field
      }
  }
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** A parameter's field: a select for choices and flags, text otherwise (placeholder: the
 *  default; title: the doc and the range). */
function paramField(p) {
  const key = `df-params-${p.name}`;
  const range = p.min !== undefined ? ` (${p.min_open ? "above" : "from"} ${p.min} to ${p.max})` : "";
  const title = escape(`${p.doc}${range}`);
  if (p.type === "choice" || p.type === "flag") {
    const options = p.type === "flag" ? ["true", "false"] : p.options;
    const items = options.map((o) => `<option value="${escape(o)}">${escape(o)}</option>`).join("");
    return `<label title="${title}"><span>${escape(p.name)}</span><select ${key} aria-label="${escape(p.name)}"><option value="">default (${escape(String(p.default))})</option>${items}</select></label>`;
  }
  const placeholder = escape(fieldText(p.default));
  return `<label title="${title}"><span>${escape(p.name)}</span><input ${key} type="text" placeholder="${placeholder}" aria-label="${escape(p.name)}"></label>`;
}

function nodeHtml(type) {
  return `<div class="gn-node" title="${escape(type.doc)}">
    <div class="gn-title"><input df-name type="text" aria-label="node name"><small>${escape(type.name)}</small></div>
    ${type.params.map(paramField).join("")}
    <div class="gn-preview"><canvas class="gn-thumb" width="${THUMB}" height="${THUMB}" role="img" aria-label="this node's output"></canvas>
      <div class="gn-preview-side"><small class="gn-time"></small>${previewFields()}</div></div>
  </div>`;
}

/** A node's own preview settings (as FastNoise2's node previews have): how much of the world
 *  its thumbnail shows about the view's centre, and the seed it renders with. They change no
 *  value of the graph. */
function previewFields() {
  const scales = PREVIEW_SCALES.map((k) => `<option value="${k}">view ×${k < 1 ? `1/${1 / k}` : k}</option>`).join("");
  return `<label title="how much of the world this node's thumbnail shows, about the view's centre (×2: twice the view's width)"><span>area</span><select class="gn-preview-scale" aria-label="preview area">${scales}</select></label>
    <label title="the seed this node's thumbnail renders with (a whole number 0..=18446744073709551615; empty: the page's)"><span>seed</span><input class="gn-preview-seed" type="text" placeholder="page" aria-label="preview seed"></label>`;
}

/** A preview seed's text as a seed: undefined where empty, a number (a BigInt past 2^53), or
 *  an Error that says why not. */
function previewSeed(text) {
  const t = String(text ?? "").trim();
  if (t === "") return undefined;
  if (!/^\d+$/.test(t) || BigInt(t) > 18446744073709551615n) {
    return new Error(`preview seed: ${JSON.stringify(t.slice(0, 40))} is not a whole number in 0..=18446744073709551615`);
  }
  return BigInt(t) > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(t) : Number(t);
}

export class NodeEditor {
  /** `container`: the canvas's element; `nodeTypes`: the node table; `onChange(graph)`: after
   *  every edit; `thumbnail(graph)`: `{rgba, width, height, ms}` of `graph`'s output over the
   *  whole view (a node's thumbnail passes the nodes that feed it, the node as output). */
  constructor(container, nodeTypes, { onChange, thumbnail }) {
    this.types = new Map(nodeTypes.map((t) => [t.name, t]));
    this.onChange = onChange;
    this.thumbnail = thumbnail;
    this.top = { dims: 2 }; // the graph's fields other than nodes (dims, seed, output)
    this.history = [];
    this.future = [];
    this.clipboard = null;
    this.quiet = 0; // > 0 while the canvas is rebuilt: no change events
    this.df = new window.Drawflow(container);
    this.df.reroute = false;
    this.df.start();
    for (const event of ["nodeCreated", "nodeRemoved", "connectionCreated", "connectionRemoved", "nodeDataChanged"]) {
      this.df.on(event, (what) => this.changed(event, what));
    }
    this.df.on("nodeMoved", () => this.changed("nodeMoved"));
    this.container = container;
    this.placed = 0; // nodes placed by `add` at the view's centre, each a step further
    this.thumbnails = 0; // the current thumbnail pass; an edit starts a new one
    this.previews = loadPreviews(); // node name -> its preview settings
    // Typing into a field again after leaving it is a new undo step.
    container.addEventListener("focusout", () => { this.lastTyping = null; });
    wireAddMenu(this, container);
    this.minimap = new Minimap(this, container);
    // Delete takes a selected wire or node wherever the keyboard focus is (Drawflow listens on
    // its canvas only), but never while a field is being typed in.
    document.addEventListener("keydown", (e) => {
      if (!["Delete", "Backspace"].includes(e.key) || container.contains(e.target)) return;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.target.isContentEditable) return;
      if (this.df.connection_selected) this.df.removeConnection();
      else if (this.df.node_selected) this.df.removeNodeId(this.df.node_selected.id);
      else return;
      e.preventDefault();
    });
  }

  /** Every node of the canvas: `[id, node]` pairs. */
  nodes() {
    return Object.entries(this.df.export().drawflow.Home.data);
  }

  idOf(name) {
    return this.nodes().find(([, n]) => n.data.name === name)?.[0];
  }

  /** A name not yet used (nor in `taken`), from `base`. */
  freshName(base, taken = []) {
    const used = new Set([...this.nodes().map(([, n]) => n.data.name), ...taken]);
    if (!used.has(base)) return base;
    let k = 2;
    while (used.has(`${base}_${k}`)) k++;
    return `${base}_${k}`;
  }

  /** Adds a node of `typeName` (its name fresh from `name` or the type), with `params`;
   *  returns its name. */
  add(typeName, { name, params = {}, at } = {}) {
    const type = this.types.get(typeName);
    if (!type) throw new Error(`no node type "${typeName}"`);
    const nodeName = this.freshName(name ?? typeName.replace(/-/g, "_"));
    const fields = Object.fromEntries(type.params.map((p) => [p.name, fieldText(params[p.name])]));
    const [x, y] = at ?? this.freePlace();
    this.quiet++;
    try {
      const id = this.df.addNode(typeName, portsOf(type).length, 1, x, y, "gn", { name: nodeName, type: typeName, params: fields }, nodeHtml(type));
      namePorts(id, type);
    } finally {
      this.quiet--;
    }
    this.changed("nodeCreated");
    return nodeName;
  }

  /** Each node's id, name and box `[x0, y0, x1, y1]` in the canvas's own coordinates. */
  nodeBoxes() {
    return this.nodes().map(([id, n]) => {
      const element = document.getElementById(`node-${id}`);
      const box = [n.pos_x, n.pos_y, n.pos_x + (element?.offsetWidth ?? COLUMN), n.pos_y + (element?.offsetHeight ?? ROW)];
      return { id, name: n.data.name, box };
    });
  }

  /** The part of the canvas in view, `[x0, y0, x1, y1]` in its own coordinates. */
  viewBox() {
    const box = this.container.getBoundingClientRect();
    return [...this.canvasPoint(box.left, box.top), ...this.canvasPoint(box.right, box.bottom)];
  }

  /** Pans the canvas so its point (x, y) is at the view's centre, at `zoom` (the current one
   *  unless given). */
  centreOn(x, y, zoom = this.df.zoom) {
    const box = this.container.getBoundingClientRect();
    // A canvas point p lands at o + t + (p - o) zoom in the canvas's box, o its transform's
    // origin: t puts (x, y) at the box's centre.
    const [ox, oy] = getComputedStyle(this.df.precanvas).transformOrigin.split(" ").map(parseFloat);
    this.df.zoom = zoom;
    this.df.canvas_x = box.width / 2 - ox - (x - ox) * zoom;
    this.df.canvas_y = box.height / 2 - oy - (y - oy) * zoom;
    this.df.precanvas.style.transform = `translate(${this.df.canvas_x}px, ${this.df.canvas_y}px) scale(${zoom})`;
    this.df.dispatch("zoom", zoom);
  }

  /** Pans and zooms the canvas so every node is in view (zoom at most 1), centred. */
  fitToView() {
    const nodes = this.nodeBoxes().map((n) => n.box);
    if (nodes.length === 0) return;
    const [x0, y0] = [Math.min(...nodes.map((b) => b[0])), Math.min(...nodes.map((b) => b[1]))];
    const [x1, y1] = [Math.max(...nodes.map((b) => b[2])), Math.max(...nodes.map((b) => b[3]))];
    const box = this.container.getBoundingClientRect();
    const margin = 24;
    const zoom = Math.max(this.df.zoom_min, Math.min(1, (box.width - 2 * margin) / (x1 - x0), (box.height - 2 * margin) / (y1 - y0)));
    this.centreOn((x0 + x1) / 2, (y0 + y1) / 2, zoom);
  }

  /** Client point (x, y) in the canvas's own coordinates (Drawflow's pan and zoom undone). */
  canvasPoint(x, y) {
    const canvas = this.df.precanvas.getBoundingClientRect();
    const zoom = this.df.zoom || 1;
    return [Math.round((x - canvas.left) / zoom), Math.round((y - canvas.top) / zoom)];
  }

  /** A place in view: the canvas's centre in its own coordinates (Drawflow's pan and zoom
   *  undone), each new node a step down and right of the last, so none hides another. */
  freePlace() {
    const box = this.container.getBoundingClientRect();
    const [x, y] = this.canvasPoint(box.left + box.width / 2, box.top + box.height / 2);
    const step = 24 * (this.placed++ % 6);
    return [x - COLUMN / 3 + step, y - ROW / 2 + step];
  }

  /** Wires node `from`'s output into `input` of node `to` (`index`: the list position). */
  connect(from, to, input, index = 0) {
    const type = this.types.get(this.nodeByName(to).data.type);
    const port = portsOf(type).findIndex((p) => p.input === input) + index;
    if (port < 0 || portsOf(type)[port]?.input !== input) {
      throw new Error(`node "${to}" (${type.name}) has no input ${input}[${index}]`);
    }
    this.df.addConnection(this.idOf(from), this.idOf(to), "output_1", `input_${port + 1}`);
  }

  nodeByName(name) {
    const found = this.nodes().find(([, n]) => n.data.name === name);
    if (!found) throw new Error(`no node "${name}"`);
    return found[1];
  }

  remove(name) {
    this.df.removeNodeId(`node-${this.idOf(name)}`);
  }

  selectedName() {
    const id = this.df.node_selected?.id?.replace("node-", "");
    return id ? this.df.getNodeFromId(id).data.name : null;
  }

  /** Copies node `name` with every node it reads (its subtree, as FastNoise2 copies) as the
   *  tool's graph JSON, output `name`, to the system clipboard where the page may write it and
   *  to the editor's own; returns the text, or null with nothing selected. */
  copy(name = this.selectedName()) {
    if (!name) return null;
    const text = specText(this.feeding(this.graph(), name));
    this.clipboard = text;
    navigator.clipboard?.writeText(text).catch(() => {});
    return text;
  }

  /** Pastes a graph's JSON (`text`, else the editor's clipboard) as new nodes: each under a
   *  fresh name where its own is taken, with the wires between them kept, placed in view;
   *  returns the name of the pasted output. A text that is not a graph is refused with why. */
  paste(text = this.clipboard) {
    if (!text) return null;
    const pasted = parseSpec(text);
    const nodes = pasted?.nodes;
    if (typeof nodes !== "object" || nodes === null) throw new Error("paste: the clipboard holds no graph (a JSON object with \"nodes\")");
    const names = {};
    for (const name of Object.keys(nodes)) names[name] = this.freshName(name, Object.values(names));
    const [x, y] = this.freePlace();
    const order = this.sourcesFirst(nodes);
    const depth = {};
    const ids = {};
    this.quiet++;
    try {
      for (const name of order) {
        const fields = nodes[name];
        const type = this.types.get(fields.type);
        if (!type) throw new Error(`paste: node "${name}" has no node type "${fields.type}"`);
        depth[name] = 1 + Math.max(-1, ...this.inputsOf(fields).map((n) => depth[n] ?? -1));
        const params = Object.fromEntries(type.params.map((p) => [p.name, fieldText(fields[p.name])]));
        const at = [x + depth[name] * COLUMN - COLUMN * Math.max(...Object.values(depth)), y + 40 * order.indexOf(name)];
        ids[name] = this.df.addNode(type.name, portsOf(type).length, 1, at[0], at[1], "gn", { name: names[name], type: type.name, params }, nodeHtml(type));
        namePorts(ids[name], type);
      }
      for (const name of order) this.wireInputs(nodes[name], ids[name], (source) => ids[source]);
    } finally {
      this.quiet--;
    }
    this.changed("nodeCreated");
    return names[pasted.output] ?? names[order.at(-1)];
  }

  /** Wires node `to` (an id) as `fields` gives its inputs, each source named there found by
   *  `idOf` (left unwired where it names no node of the canvas). */
  wireInputs(fields, to, idOf) {
    const type = this.types.get(fields.type);
    const ports = portsOf(type);
    for (const input of type.inputs) {
      const first = ports.findIndex((p) => p.input === input.name);
      const sources = [].concat(fields[input.name] ?? []);
      sources.slice(0, input.arity === "one" ? 1 : LIST_PORTS).forEach((source, k) => {
        const from = idOf(source);
        if (from !== undefined) this.df.addConnection(from, to, "output_1", `input_${first + k + 1}`);
      });
    }
  }

  /** Converts node `name` to `typeName`, keeping its name (so the nodes that read it still
   *  do), the parameters and the input wires the new type has under the same names. */
  convert(name, typeName) {
    const type = this.types.get(typeName);
    if (!type) throw new Error(`no node type "${typeName}"`);
    const graph = this.graph();
    const old = graph.nodes[name];
    if (!old) throw new Error(`no node "${name}"`);
    const fields = { type: typeName };
    for (const key of [...type.inputs.map((i) => i.name), ...type.params.map((p) => p.name)]) {
      if (old[key] !== undefined) fields[key] = old[key];
    }
    graph.nodes[name] = fields;
    this.load(graph, this.positions());
    this.changed("nodeCreated");
  }

  /** A copy of node `name` alone, unwired, under a fresh name. */
  duplicate(name = this.selectedName()) {
    if (!name) return null;
    const node = this.nodeByName(name);
    return this.add(node.data.type, { name, params: this.params(node) });
  }

  /** A node's parameters as JSON values (absent where its field is empty). */
  params(node) {
    const type = this.types.get(node.data.type);
    const out = {};
    for (const p of type.params) {
      const v = fieldValue(p, node.data.params?.[p.name]);
      if (v !== undefined) out[p.name] = v;
    }
    return out;
  }

  /** The graph on the canvas, as the tool reads it. */
  graph() {
    const nodes = {};
    const byId = new Map(this.nodes());
    for (const [, node] of byId) {
      const type = this.types.get(node.data.type);
      const fields = { type: type.name };
      const ports = portsOf(type);
      for (const input of type.inputs) {
        const names = [];
        ports.forEach((p, k) => {
          if (p.input !== input.name) return;
          const wire = node.inputs[`input_${k + 1}`]?.connections?.[0];
          if (wire) names.push(byId.get(String(wire.node)).data.name);
        });
        if (input.arity === "one") {
          if (names.length) fields[input.name] = names[0];
        } else {
          fields[input.name] = names;
        }
      }
      Object.assign(fields, this.params(node));
      nodes[node.data.name] = fields;
    }
    const names = Object.keys(nodes);
    const output = names.includes(this.top.output) ? this.top.output : this.sink(nodes) ?? names[0];
    return { ...this.top, output, nodes };
  }

  /** The names of the nodes a node's fields read, by its type's inputs (the node table's). */
  inputsOf(fields) {
    const inputs = this.types.get(fields.type)?.inputs ?? [];
    return inputs.flatMap((i) => [].concat(fields[i.name] ?? [])).filter((n) => typeof n === "string");
  }

  /** The node no other node reads (the last added such), the output by default. */
  sink(nodes) {
    const read = new Set(Object.values(nodes).flatMap((n) => this.inputsOf(n)));
    return Object.keys(nodes).filter((n) => !read.has(n)).at(-1);
  }

  setOutput(name) {
    this.top.output = name;
    this.changed("output");
  }

  /** Rebuilds the canvas from `graph`: nodes in columns by their depth from the sources. */
  load(graph, positions) {
    this.quiet++;
    try {
      this.df.clear();
      const { nodes = {}, ...top } = graph;
      this.top = top;
      const depth = {};
      const depthOf = (name, seen = new Set()) => {
        if (depth[name] !== undefined) return depth[name];
        if (seen.has(name) || !nodes[name]) return 0;
        seen.add(name);
        depth[name] = 1 + Math.max(-1, ...this.inputsOf(nodes[name]).map((n) => depthOf(n, seen)));
        return depth[name];
      };
      // Each column's next free height: nodes stack by their drawn heights.
      const below = {};
      const ids = {};
      for (const [name, fields] of Object.entries(nodes)) {
        const type = this.types.get(fields.type);
        if (!type) throw new Error(`node "${name}": no node type "${fields.type}"`);
        const d = depthOf(name);
        const [x, y] = positions?.[name] ?? [20 + d * COLUMN, below[d] ?? 20];
        const params = Object.fromEntries(type.params.map((p) => [p.name, fieldText(fields[p.name])]));
        ids[name] = this.df.addNode(type.name, portsOf(type).length, 1, x, y, "gn", { name, type: type.name, params }, nodeHtml(type));
        namePorts(ids[name], type);
        const drawn = document.querySelector(`#node-${ids[name]}`)?.offsetHeight || ROW;
        below[d] = y + drawn + 24;
      }
      for (const [name, fields] of Object.entries(nodes)) this.wireInputs(fields, ids[name], (source) => ids[source]);
    } finally {
      this.quiet--;
    }
    this.refreshThumbnails();
  }

  /** Empties the canvas for a new graph of `dims` dimensions (an edit: undo brings the old
   *  graph back). */
  clear(dims = 2) {
    this.load({ dims, nodes: {} });
    this.changed("clear");
  }

  /** Node positions by name (kept through undo). */
  positions() {
    return Object.fromEntries(this.nodes().map(([, n]) => [n.data.name, [n.pos_x, n.pos_y]]));
  }

  snapshot() {
    return { graph: this.graph(), positions: this.positions() };
  }

  undo() {
    if (this.history.length < 2) return false;
    this.future.push(this.history.pop());
    this.restore(this.history.at(-1));
    return true;
  }

  redo() {
    const next = this.future.pop();
    if (!next) return false;
    this.history.push(next);
    this.restore(next);
    return true;
  }

  restore(state) {
    this.lastTyping = null;
    this.load(state.graph, state.positions);
    this.onChange(this.graph());
  }

  /** Records the canvas as a new history state (`keep` the redo list: a load, not an edit).
   *  Edits to the field `typing` names (the one being typed in) are one step: while the same
   *  field takes keystrokes, the newest state replaces the last instead of adding to it. */
  record(keep = false, typing = null) {
    const state = this.snapshot();
    const text = JSON.stringify(state, (k, v) => (typeof v === "bigint" ? v.toString() : v));
    if (text === this.lastRecorded) return;
    this.lastRecorded = text;
    if (typing !== null && typing === this.lastTyping && this.history.length > 1) this.history[this.history.length - 1] = state;
    else this.history.push(state);
    this.lastTyping = typing;
    if (!keep) this.future = [];
    this.saveSession();
  }

  /** Keeps the undo history (graphs with node positions) in the page's storage, so a reload
   *  of the same graph gets its layout and its undo steps back (`resume`). */
  saveSession() {
    const steps = (list) => list.slice(-SESSION_STEPS).map((s) => ({ graph: specText(s.graph), positions: s.positions }));
    try {
      localStorage.setItem(SESSION_KEY, JSON.stringify({ history: steps(this.history), future: steps(this.future) }));
    } catch {
      // Storage full or refused (a private window): the session lives until the page closes.
    }
  }

  /** Loads `graph` (a text's or a link's, not an edit) at `layout` (node name to [x, y]: a
   *  link's or a file's) where given. Where the page's storage holds a session that ended on
   *  this graph (at this layout, where one is given: a reload), its undo steps come back too;
   *  else the load is a new step. */
  loadResuming(graph, layout = null) {
    this.load(graph, layout ?? undefined);
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(SESSION_KEY) ?? "null");
    } catch {
      // An unreadable session is no session.
    }
    const last = saved?.history?.at(-1);
    const elsewhere = layout && JSON.stringify(last?.positions) !== JSON.stringify(this.positions());
    if (!last || last.graph !== specText(this.graph()) || elsewhere) {
      this.record(true);
      return;
    }
    const steps = (list) => list.map((s) => ({ graph: parseSpec(s.graph), positions: s.positions }));
    this.history = steps(saved.history);
    this.future = steps(saved.future ?? []);
    this.load(this.history.at(-1).graph, last.positions);
    this.lastRecorded = JSON.stringify(this.snapshot(), (k, v) => (typeof v === "bigint" ? v.toString() : v));
  }

  /** The field keystrokes go to, if it is a node's: `node id/field`, else null. */
  typingField() {
    const field = document.activeElement;
    const node = field?.closest?.(".drawflow-node");
    if (!node || !this.container.contains(node) || field.tagName !== "INPUT") return null;
    const name = [...field.attributes].find((a) => a.name.startsWith("df-"))?.name;
    return name ? `${node.id}/${name}` : null;
  }

  changed(event, what) {
    if (this.quiet > 0) return;
    // Moves are kept for undo but change no value.
    clearTimeout(this.timer);
    const typing = event === "nodeDataChanged" ? this.typingField() : null;
    this.timer = setTimeout(() => {
      this.record(false, typing);
      if (event === "nodeMoved") {
        this.onMoved?.();
        return;
      }
      this.onChange(this.graph());
      this.refreshThumbnails();
    }, 0);
    if (event === "connectionCreated") this.oneWirePerPort(what);
  }

  /** A port takes one wire: a new wire replaces the one it had. */
  oneWirePerPort({ input_id, input_class }) {
    const wires = this.df.getNodeFromId(input_id).inputs[input_class]?.connections ?? [];
    this.quiet++;
    try {
      for (const old of wires.slice(0, -1)) this.df.removeSingleConnection(old.node, input_id, old.input, input_class);
    } finally {
      this.quiet--;
    }
  }

  /** Each node's thumbnail, sources first, one node per task so the page stays responsive;
   *  an edit during a pass starts a new one. A node whose own render fails shows its error; a
   *  node that reads a failed one waits on it (its own fields may be fine). Resolves when the
   *  pass is done or overtaken; `drawn` holds the newest pass's promise. */
  refreshThumbnails() {
    this.drawn = drawThumbnails(this, ++this.thumbnails);
    return this.drawn;
  }

  /** Node `name`'s preview settings: `{scale, seed}` (scale 1 and no seed: the view's). */
  previewOf(name) {
    const { scale = 1, seed } = this.previews[name] ?? {};
    const parsed = previewSeed(seed);
    return { scale, seed: parsed instanceof Error ? undefined : parsed };
  }

  /** Shows node `name`'s preview settings in its fields (`element`), wired once: a change
   *  keeps it under the node's name and redraws the thumbnails; a seed that is not one stays
   *  in its field with the message, and the thumbnail keeps its last valid seed. */
  wirePreview(element, name) {
    const [scale, seed] = [element.querySelector(".gn-preview-scale"), element.querySelector(".gn-preview-seed")];
    if (!scale || !seed) return;
    element.dataset.previewName = name;
    const own = this.previews[name] ?? {};
    if (!scale.dataset.wired) {
      scale.value = String(own.scale ?? 1);
      seed.value = own.seed ?? "";
    }
    if (scale.dataset.wired) return;
    scale.dataset.wired = "1";
    const keep = () => {
      const at = element.dataset.previewName;
      const parsed = previewSeed(seed.value);
      seed.setAttribute("aria-invalid", String(parsed instanceof Error));
      seed.title = parsed instanceof Error ? parsed.message : "the seed this node's thumbnail renders with; empty: the page's";
      const last = this.previews[at]?.seed;
      const settings = { scale: Number(scale.value), seed: parsed instanceof Error ? last : seed.value.trim() || undefined };
      if (settings.scale === 1 && settings.seed === undefined) delete this.previews[at];
      else this.previews[at] = settings;
      savePreviews(this.previews);
      this.refreshThumbnails();
    };
    scale.addEventListener("change", keep);
    seed.addEventListener("change", keep);
  }

  /** The part of `graph` node `name` reads, directly or not, with `name` as the output: what
   *  its thumbnail renders, so an unwired node elsewhere does not fail it. */
  feeding(graph, name) {
    const keep = {};
    const visit = (n) => {
      if (keep[n] || !graph.nodes[n]) return;
      keep[n] = graph.nodes[n];
      this.inputsOf(graph.nodes[n]).forEach(visit);
    };
    visit(name);
    return { ...graph, nodes: keep, output: name };
  }

  /** The graph's node names with every node after the nodes it reads (cycles broken). */
  sourcesFirst(nodes) {
    const order = [];
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !nodes[name]) return;
      seen.add(name);
      for (const input of this.inputsOf(nodes[name])) visit(input);
      order.push(name);
    };
    Object.keys(nodes).forEach(visit);
    return order;
  }
}

/** The preview settings kept in the page's storage, or none. */
function loadPreviews() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREVIEWS_KEY) ?? "{}");
    return typeof saved === "object" && saved !== null ? saved : {};
  } catch {
    return {}; // unreadable: none
  }
}

function savePreviews(previews) {
  try {
    localStorage.setItem(PREVIEWS_KEY, JSON.stringify(previews));
  } catch {
    // Storage full or refused: the settings live until the page closes.
  }
}

export const THUMBNAIL_SIDE = THUMB;
