// The entry's inputs of benchmarks/bare_component_entry.py, built here in the browser.
// data: {round, players, calls}. Save sends {round, hands, caller, call} as the trigger
// "save"; a new round in data empties the fields and the choices.
export default function (component) {
  const { parentElement, data, setTriggerValue } = component;
  let root = parentElement.querySelector(".bench-entry");
  if (!root) {
    root = document.createElement("div");
    root.className = "bench-entry";
    const grid = document.createElement("div");
    grid.style.cssText = "display:grid;grid-template-columns:1fr 1fr;gap:8px";
    for (const name of data.players) {
      const label = document.createElement("label");
      label.textContent = name;
      const input = document.createElement("input");
      input.setAttribute("aria-label", name);
      input.autocomplete = "off"; input.setAttribute("autocorrect", "off");
      input.setAttribute("autocapitalize", "off"); input.spellcheck = false;
      label.appendChild(input);
      grid.appendChild(label);
    }
    root.appendChild(grid);
    const groups = [["caller", [...data.players, "Nobody"]], ["call", data.calls]];
    for (const [group, options] of groups) {
      const row = document.createElement("div");
      row.setAttribute("role", "radiogroup"); row.dataset.group = group;
      for (const option of options) {
        const button = document.createElement("button");
        button.type = "button"; button.setAttribute("role", "radio");
        button.setAttribute("aria-checked", "false"); button.textContent = option;
        button.addEventListener("click", () => {
          for (const other of row.children) other.setAttribute("aria-checked", "false");
          button.setAttribute("aria-checked", "true");
        });
        row.appendChild(button);
      }
      root.appendChild(row);
    }
    const save = document.createElement("button");
    save.type = "button"; save.className = "bench-save"; save.textContent = "Save the round";
    root.appendChild(save);
    parentElement.appendChild(root);
  }
  root.querySelector(".bench-save").onclick = () => {
    const chosen = (group) => {
      const button = root.querySelector(`[data-group=${group}] [aria-checked=true]`);
      return button ? button.textContent : null;
    };
    setTriggerValue("save", {
      round: data.round,
      hands: [...root.querySelectorAll("input")].map((input) => input.value),
      caller: chosen("caller"), call: chosen("call"),
    });
  };
  if (root.dataset.round !== String(data.round)) {
    for (const input of root.querySelectorAll("input")) input.value = "";
    for (const button of root.querySelectorAll("[role=radio]")) {
      button.setAttribute("aria-checked", "false");
    }
    root.dataset.round = String(data.round);
  }
}
