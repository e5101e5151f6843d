// The node editor's add menu (FastNoise2's): the node table's types grouped by category with a
// search field, at the cursor; and a wire let go on the empty canvas, which opens it to add a
// node already wired.

/** The add menu (FastNoise2's): a right click or the space bar over the canvas opens it at
 *  the cursor, the node table's types grouped by category with a search field; a wire
 *  dropped on the empty canvas opens it too, and the node picked there is wired to it. */
export function wireAddMenu(editor, container) {
  let cursor = null;
  container.addEventListener("pointermove", (e) => { cursor = [e.clientX, e.clientY]; });
  container.addEventListener("contextmenu", (e) => {
    if (e.target.closest(".drawflow-node") || e.target.closest(".connection")) return;
    e.preventDefault();
    openAddMenu(editor, e.clientX, e.clientY);
  });
  container.addEventListener("keydown", (e) => {
    if (e.key !== " " || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    e.preventDefault();
    const box = container.getBoundingClientRect();
    const [x, y] = cursor ?? [box.left + box.width / 2, box.top + box.height / 2];
    openAddMenu(editor, x, y);
  });
  // Drawflow drops a wire let go off any input; the node it came from is noted before.
  container.addEventListener("mouseup", (e) => {
    if (editor.df.connection !== true || e.target.closest(".input")) return;
    const from = editor.df.ele_selected?.closest(".drawflow-node")?.id?.replace("node-", "");
    if (from) setTimeout(() => openAddMenu(editor, e.clientX, e.clientY, from), 0);
  }, true);
}

/** Opens the add menu at client point (x, y); the type picked is added there, wired from node
 *  id `from` (into its first input) where given. Returns the menu's element. */
export function openAddMenu(editor, x, y, from = null) {
  document.getElementById("add-menu")?.remove();
  const menu = document.createElement("div");
  menu.id = "add-menu";
  menu.setAttribute("role", "dialog");
  menu.setAttribute("aria-label", "add a node");
  menu.style.left = `${x}px`;
  menu.style.top = `${y}px`;
  const search = document.createElement("input");
  search.type = "search";
  search.placeholder = "search node types";
  search.setAttribute("aria-label", "search node types");
  const list = document.createElement("div");
  list.className = "add-menu-list";
  menu.append(search, list);
  document.body.append(menu);
  const types = [...editor.types.values()].filter((t) => !from || t.inputs.length > 0);
  const close = () => menu.remove();
  const pick = (type) => {
    close();
    const name = editor.add(type.name, { at: editor.canvasPoint(x, y) });
    if (from) editor.df.addConnection(from, editor.idOf(name), "output_1", "input_1");
  };
  const show = () => {
    const words = search.value.trim().toLowerCase();
    const matching = types.filter((t) => t.name.includes(words) || t.category.includes(words));
    list.replaceChildren(...[...new Set(matching.map((t) => t.category))].map((category) => {
      const group = document.createElement("section");
      const title = document.createElement("h4");
      title.textContent = category;
      group.append(title, ...matching.filter((t) => t.category === category).map((t) => {
        const item = document.createElement("button");
        item.type = "button";
        item.textContent = t.name;
        item.title = t.doc;
        item.dataset.type = t.name;
        item.addEventListener("click", () => pick(t));
        return item;
      }));
      return group;
    }));
    menu.dataset.first = matching[0]?.name ?? "";
  };
  search.addEventListener("input", show);
  search.addEventListener("keydown", (e) => {
    if (e.key === "Escape") close();
    if (e.key === "Enter" && menu.dataset.first) pick(editor.types.get(menu.dataset.first));
  });
  setTimeout(() => document.addEventListener("pointerdown", function away(e) {
    if (!menu.contains(e.target)) {
      close();
      document.removeEventListener("pointerdown", away);
    }
  }), 0);
  show();
  search.focus();
  return menu;
}
