"use strict";
// Lists the endpoints of /api/openapi.json: path, summary, description and parameters (all as text).
function add(parent, tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  parent.appendChild(node);
  return node;
}
fetch("/api/openapi.json").then((r) => r.json()).then((spec) => {
  const box = document.getElementById("endpoints");
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const section = add(box, "section", undefined, "endpoint");
      add(section, "h2", method.toUpperCase() + " " + path);
      if (op.description) add(section, "p", op.description);
      const params = op.parameters || [];
      if (params.length) {
        const list = add(section, "ul");
        for (const p of params) {
          add(list, "li", p.name + " (" + p.in + "): " + ((p.schema && p.schema.description) || p.description || ""));
        }
      }
    }
  }
});
