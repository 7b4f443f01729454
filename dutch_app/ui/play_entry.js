// The Play page's round entry, drawn here in the browser (see dutch_app/ui/play_entry.py).
//
// What is typed stays in this element: the server never writes into a field while the
// person types. The element tells the server what the entry holds ("draft", after a short
// pause, for the preview and the penalty count) and sends the whole entry with Save
// ("save"). The server answers by drawing the element again with its data: the preview,
// the problems of a refused save, and, once a round is stored, a new entry number, which
// empties the form here at once. A new entry number is the only thing that replaces what
// the fields hold (with data.fill: the server's copy of that entry, empty for a new round).
//
// Each part stands in a box with the lasting name the page's widgets had
// (st-key-play_round_hand_0, …_caller, …_call_type, …_penalty, …_pad, …_save), which is
// what the page's styles, its scripts and the browser tests address. Every text from the
// server goes in as text, never as markup.

const DRAFT_MS = 250; // a pause in typing this long sends the entry for the preview
const SAVE_WAIT_MS = 8000; // Save is held this long for the server's answer, at the most
const STORED_AGAIN_MS = 2500; // the page is told of a stored round again after this
const WHOLE = /^-?[0-9]*$/; // a total, or the start of one

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

// The text with its place-holder filled in, taken as it is: a name may hold anything
// (String.replace would read "$&" in it as a pattern).
function fillIn(text, holder, value) {
  return text.split(holder).join(value);
}

function isTotal(text) {
  return WHOLE.test(text.trim());
}

// Cards as the server reads them: a single number card gets a trailing comma, so that it
// is the card and not a total.
function asCards(tokens) {
  const text = tokens.join(" ");
  return text && isTotal(text) ? `${text},` : text;
}

function cardTokens(text) {
  return text.replace(/,\s*$/, "").split(/\s+/).filter(Boolean);
}

function signature(data) {
  return JSON.stringify([
    data.form, data.players, data.callers, data.calls, data.texts, data.pad,
  ]);
}

function choiceGroup(entry, name, label, options) {
  const box = make("div", `dutch-entry-choice st-key-${entry.form}_${name}`);
  const title = make("div", "dutch-entry-label", label);
  title.id = `${entry.form}-${name}-label`;
  const group = make("div", "dutch-entry-options");
  group.setAttribute("role", "radiogroup");
  group.setAttribute("aria-labelledby", title.id);
  for (const [value, text] of options) {
    const button = make("button", "dutch-entry-option", text);
    button.type = "button";
    button.setAttribute("role", "radio");
    button.setAttribute("aria-checked", "false");
    button.dataset.value = value;
    button.addEventListener("click", () => {
      const chosen = button.getAttribute("aria-checked") === "true";
      setChoice(group, chosen ? null : value); // a second tap takes the choice back
      entry.changed(0);
    });
    group.appendChild(button);
  }
  box.append(title, group);
  return { box, group };
}

function setChoice(group, value) {
  for (const button of group.children) {
    button.setAttribute("aria-checked", String(button.dataset.value === value));
  }
}

function chosen(group) {
  const button = group.querySelector("[aria-checked=true]");
  return button ? button.dataset.value : null;
}

function textField(entry, name, label, placeholder) {
  const box = make("div", `dutch-entry-field st-key-${entry.form}_${name}`);
  const input = make("input", "dutch-entry-input");
  input.type = "text";
  input.id = `${entry.form}-${name}`;
  input.placeholder = placeholder;
  input.autocomplete = "off";
  input.setAttribute("autocorrect", "off");
  input.setAttribute("autocapitalize", "off");
  input.setAttribute("enterkeyhint", "next");
  input.spellcheck = false;
  const title = make("label", "dutch-entry-label", label);
  title.htmlFor = input.id;
  const error = make("div", "dutch-entry-error");
  error.setAttribute("role", "alert");
  error.hidden = true;
  box.append(title, input, error);
  input.addEventListener("input", () => entry.changed());
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault(); // Enter moves on to the next field; it never saves
    entry.nextField(input);
  });
  return { box, input, title, error };
}

class Entry {
  constructor(root, component) {
    this.root = root;
    this.component = component;
    this.timer = null;
    this.saving = null;
    this.target = 0; // the pad's field: a seat, or "penalty"
    this.total = false; // the pad enters totals instead of cards
    this.sent = 0; // the number of the last entry sent; the server says which it has seen
    this.nextWaits = false; // Next waits for the server's word on the penalty cards
    this.posting = false; // a round is on its way to the round route
    this.expect = null; // the entry number the server gives the form after a stored round
    this.again = null; // asks the page again should its answer to "stored" not come
  }

  showRound(number, dealer) {
    this.heading.textContent = fillIn(this.data.texts.heading, "{number}", String(number));
    this.dealer.textContent = fillIn(this.data.texts.deals, "{dealer}", dealer);
  }

  build(data) {
    const kept = this.values !== undefined && this.form ? this.read() : null;
    this.form = data.form;
    this.data = data;
    const texts = data.texts;
    this.root.replaceChildren();
    this.heading = make("h3", "dutch-entry-heading");
    this.dealer = make("p", "dutch-entry-dealer");
    this.dealer.title = texts.dealHelp;
    this.root.append(this.heading, this.dealer);
    this.hands = [];
    const grid = make("div", "dutch-entry-hands");
    if (data.players.length > 3) grid.classList.add("dutch-entry-two");
    data.players.forEach((player, seat) => {
      const field = textField(this, `hand_${seat}`, player, texts.handHint);
      this.hands.push(field);
      grid.appendChild(field.box);
    });
    this.root.appendChild(grid);

    const switchBox = make("label", `dutch-entry-switch st-key-${this.form}_pad_on`);
    this.padSwitch = make("input");
    this.padSwitch.type = "checkbox";
    this.padSwitch.setAttribute("role", "switch");
    this.padSwitch.addEventListener("change", () => this.drawPad());
    switchBox.append(this.padSwitch, make("span", "", texts.pad));
    switchBox.title = texts.padHelp;
    this.root.appendChild(switchBox);
    this.pad = make("div", `dutch-entry-pad st-key-${this.form}_pad`);
    this.pad.hidden = true;
    this.root.appendChild(this.pad);

    this.caller = choiceGroup(this, "caller", texts.caller, data.callers);
    this.call = choiceGroup(this, "call_type", texts.how, data.calls);
    this.callerError = make("div", "dutch-entry-error");
    this.callerError.setAttribute("role", "alert");
    this.callerError.hidden = true;
    this.preview = make("div", `dutch-entry-preview st-key-${this.form}_preview`);
    this.preview.hidden = true;
    this.penalty = textField(this, "penalty", "", texts.penaltyHint);
    this.penalty.box.hidden = true;
    this.summary = make("div", "dutch-entry-summary");
    this.summary.setAttribute("role", "alert");
    this.summary.hidden = true;
    const saveBox = make("div", `dutch-entry-savebox st-key-${this.form}_save`);
    this.save = make("button", "dutch-entry-save", texts.save);
    this.save.type = "button";
    this.save.addEventListener("click", () => this.send());
    saveBox.appendChild(this.save);
    this.root.append(
      this.caller.box, this.call.box, this.callerError, this.preview, this.penalty.box,
      this.summary, saveBox,
    );
    this.values = true;
    if (kept) this.fill(kept);
  }

  read() {
    return {
      hands: this.hands.map((field) => field.input.value),
      caller: chosen(this.caller.group),
      call: chosen(this.call.group),
      penalty: this.penalty.input.value,
    };
  }

  fill(values) {
    this.hands.forEach((field, seat) => {
      field.input.value = (values && values.hands && values.hands[seat]) || "";
    });
    setChoice(this.caller.group, values ? values.caller : null);
    setChoice(this.call.group, values ? values.call : null);
    this.penalty.input.value = (values && values.penalty) || "";
    this.target = 0;
  }

  payload() {
    this.sent += 1;
    return { entry: this.entry, seq: this.sent, ...this.read() };
  }

  // Something in the entry changed: show what follows from it here, and send the entry
  // to the server once the typing pauses (a tap is sent at once).
  changed(wait = DRAFT_MS) {
    this.showChoices();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const send = () => {
      this.timer = null;
      this.component.setTriggerValue("draft", this.payload());
    };
    if (wait) this.timer = setTimeout(send, wait);
    else send();
  }

  // Whether the server has seen the entry as it stands (its penalty count is current).
  current() {
    return !this.timer && (this.data.seen || 0) >= this.sent;
  }

  // Save: the round goes to the app's round route, and once it is stored there the next
  // round's form is shown here at once; the page is then told, and draws the standings.
  // Whatever the route does not store (a problem in the entry, a game that moved on, no
  // route at all) is saved through the page instead, which says what is wrong.
  async send() {
    if (this.saving || this.posting) return; // a second tap before the first was answered
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.save.disabled = true;
    const entry = this.payload();
    const data = this.data;
    let answer = null;
    if (data.route) {
      this.posting = true;
      try {
        const response = await fetch(data.route, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ ...entry, game: data.game, round: data.basis, tab: data.tab }),
          credentials: "same-origin",
          cache: "no-store",
        });
        if (response.ok) answer = await response.json();
      } catch (error) {
        answer = null; // no answer: the page saves it (a round stored twice is refused)
      } finally {
        this.posting = false;
      }
    }
    if (answer && answer.stored === true) {
      this.stored(entry, answer);
      return;
    }
    this.saving = setTimeout(() => this.released(), SAVE_WAIT_MS);
    this.component.setTriggerValue("save", entry);
  }

  stored(entry, answer) {
    this.expect = this.entry + 1;
    this.saving = setTimeout(() => this.released(), SAVE_WAIT_MS);
    if (!answer.over) {
      this.fill(null);
      this.showRound(answer.number + 1, answer.dealer);
      for (const element of [this.preview, this.summary, this.penalty.box, this.callerError]) {
        element.hidden = true;
      }
      for (const field of this.hands) field.error.hidden = true;
      this.showChoices();
      this.drawPad();
      bringIntoView("hand_0", this.form, !this.padSwitch.checked, `r${answer.number}`);
      this.root.dataset.focused = String(answer.number); // done: the page's word is the same
    }
    let tries = 0;
    const tell = () => {
      if (tries++ === 3) {
        this.expect = null; // no answer came: the page's word goes again, whatever it is
        return;
      }
      this.component.setTriggerValue("stored", { ...entry, number: answer.number });
      this.again = setTimeout(tell, STORED_AGAIN_MS);
    };
    tell();
  }

  // The page's data for the entry after a stored round arrived: what was typed since
  // into the new form stays, and is sent for the preview.
  adopted() {
    if (this.again) clearTimeout(this.again);
    this.again = null;
    const typed = this.read();
    if (typed.hands.some(Boolean) || typed.caller || typed.penalty) this.changed(0);
  }

  released() {
    if (this.saving) clearTimeout(this.saving);
    this.saving = null;
    this.save.disabled = this.posting;
  }

  nextField(input) {
    const fields = this.hands.map((field) => field.input);
    if (!this.penalty.box.hidden) fields.push(this.penalty.input);
    const next = fields[fields.indexOf(input) + 1];
    if (next) next.focus();
    else input.blur();
  }

  showChoices() {
    const nobody = chosen(this.caller.group) === this.data.noCaller;
    this.call.box.hidden = nobody;
  }

  // The server's view of the entry: preview, penalty field, problems.
  update(data) {
    this.data = data;
    const errors = data.errors || {};
    this.hands.forEach((field, seat) => showError(field.error, errors[`hand_${seat}`]));
    showError(this.callerError, errors.caller);
    this.penalty.box.hidden = !data.due;
    this.penalty.title.textContent = data.penaltyLabel || "";
    showError(this.penalty.error, errors.penalty);
    this.summary.replaceChildren();
    this.summary.hidden = !data.summary;
    if (data.summary) {
      this.summary.appendChild(make("p", "", data.summary.heading));
      const list = make("ul");
      for (const line of data.summary.lines) list.appendChild(make("li", "", line));
      this.summary.appendChild(list);
    }
    this.drawPreview(data.preview);
    this.showChoices();
    if (this.nextWaits && this.current()) this.next();
    else this.drawPad();
  }

  drawPreview(preview) {
    this.preview.replaceChildren();
    this.preview.hidden = !preview;
    if (!preview) return;
    if (preview.sentence) this.preview.appendChild(make("p", "", preview.sentence));
    const table = make("table");
    const head = make("tr");
    preview.columns.forEach((column, index) => {
      head.appendChild(make("th", index ? "dutch-entry-number" : "", column));
    });
    table.appendChild(make("thead")).appendChild(head);
    const body = make("tbody");
    for (const row of preview.rows) {
      const line = make("tr");
      row.forEach((cell, index) => line.appendChild(make("td", index ? "dutch-entry-number" : "", cell)));
      body.appendChild(line);
    }
    table.appendChild(body);
    this.preview.appendChild(table);
  }

  // The card pad: buttons that write into the field being entered (the same text a
  // person could type), a switch between cards and totals, and Next.
  drawPad() {
    const on = this.padSwitch.checked;
    this.pad.hidden = !on;
    const boxes = [...this.hands.map((field) => field.box), this.penalty.box];
    for (const box of boxes) box.classList.remove("dutch-entry-target");
    if (!on) return;
    const texts = this.data.texts;
    const targets = this.targets();
    if (!targets.some(([target]) => target === this.target)) this.target = 0;
    this.field().closest(".dutch-entry-field").classList.add("dutch-entry-target");
    this.pad.replaceChildren();
    const row = make("div", `dutch-entry-targets st-key-${this.form}_pad_targets`);
    row.appendChild(make("span", "dutch-entry-caption", texts.cardsFor));
    for (const [target, name] of targets) {
      const button = make("button", "dutch-entry-key", name);
      button.type = "button";
      button.setAttribute("aria-pressed", String(target === this.target));
      button.addEventListener("click", () => {
        this.target = target;
        this.drawPad();
      });
      row.appendChild(button);
    }
    const modes = make("div", "dutch-entry-options");
    modes.setAttribute("role", "radiogroup");
    for (const [total, name] of [[false, texts.cards], [true, texts.total]]) {
      const button = make("button", "dutch-entry-option", name);
      button.type = "button";
      button.setAttribute("role", "radio");
      button.setAttribute("aria-checked", String(total === this.total));
      button.addEventListener("click", () => {
        this.total = total;
        this.drawPad();
      });
      modes.appendChild(button);
    }
    const keys = make("div", `dutch-entry-keys st-key-${this.form}_pad_keys`);
    const key = (label, act) => {
      const button = make("button", "dutch-entry-key", label);
      button.type = "button";
      button.addEventListener("click", () => {
        act();
        this.changed(0);
      });
      keys.appendChild(button);
      return button;
    };
    if (this.total) {
      for (const digit of this.data.pad.digits) key(digit, () => this.addDigit(digit));
    } else {
      for (const [token, name] of this.data.pad.cards) key(name, () => this.addCard(token));
    }
    key(texts.removeLast, () => this.removeLast()).classList.add("dutch-entry-wide");
    const next = make("button", "dutch-entry-key dutch-entry-wide", texts.next);
    next.type = "button";
    next.addEventListener("click", () => this.next());
    keys.appendChild(next);
    this.pad.append(row, modes, keys);
  }

  field() {
    return this.target === "penalty" ? this.penalty.input : this.hands[this.target].input;
  }

  addCard(token) {
    const input = this.field();
    const text = input.value.trim();
    const tokens = isTotal(text) ? [] : cardTokens(text); // a tapped card replaces a total
    input.value = asCards([...tokens, token]);
  }

  addDigit(digit) {
    const input = this.field();
    let text = input.value.trim();
    if (!isTotal(text)) text = ""; // cards were entered: a total replaces them
    if (digit === "-") input.value = text.startsWith("-") ? text.slice(1) : `-${text}`;
    else input.value = `${text}${digit}`;
  }

  removeLast() {
    const input = this.field();
    const text = input.value.trim();
    if (this.total && isTotal(text)) input.value = text.slice(0, -1);
    else input.value = asCards(cardTokens(text).slice(0, -1));
  }

  // Next: the next player, and after the last one the penalty cards when some are due.
  // Whether they are is the server's word on the hands as they stand, so after the last
  // player Next waits for it (the entry is sent at once, and the answer moves on).
  next() {
    const last = this.target === this.hands.length - 1;
    if (last && !this.current()) {
      this.nextWaits = true;
      if (this.timer) this.changed(0);
      return;
    }
    this.nextWaits = false;
    const order = this.targets().map(([target]) => target);
    const at = order.indexOf(this.target);
    this.target = order[(at + 1) % order.length];
    this.drawPad();
  }

  targets() {
    const targets = this.data.players.map((player, seat) => [seat, player]);
    if (this.data.due && chosen(this.caller.group) && !this.call.box.hidden) {
      targets.push(["penalty", this.data.penaltyTarget]);
    }
    return targets;
  }
}

function showError(element, message) {
  element.hidden = !message;
  element.textContent = message || "";
}

function bringIntoView(name, form, focus, nonce) {
  const box = document.querySelector(`.st-key-${CSS.escape(form)}_${name}`);
  if (!box) return;
  box.scrollIntoView({ block: "center" });
  document.documentElement.dataset.dutchScrolled = `${form}_${name} ${nonce}`;
  const target = box.querySelector("input, button");
  if (focus && target) target.focus({ preventScroll: true });
}

export default function (component) {
  const { parentElement, data } = component;
  let root = parentElement.querySelector(".dutch-entry");
  if (!root) {
    root = make("div", "dutch-entry");
    parentElement.appendChild(root);
  }
  let entry = root.dutchEntry;
  if (!entry) {
    entry = root.dutchEntry = new Entry(root, component);
    entry.sent = data.seen || 0; // the server's count goes on from an element drawn before
  }
  entry.component = component;
  if (entry.expect !== null && data.entry < entry.expect) {
    return; // drawn from before the round the route stored: the form has moved on already
  }
  const fresh = root.dataset.shape !== signature(data);
  if (fresh) {
    entry.build(data);
    root.dataset.shape = signature(data);
  }
  entry.data = data;
  entry.released(); // the server has answered: a run drew this element again
  if (fresh && entry.entry === undefined) entry.fill(data.fill);
  const adopting = entry.expect !== null && data.entry === entry.expect;
  if (entry.expect !== null) entry.expect = null; // the page has caught up with the route
  if (entry.entry !== data.entry) {
    // A new entry (a round was stored, the entry was discarded, or another one taken
    // up): it starts with the server's copy of it, empty for a new round, unless this
    // form was emptied already for the round the route stored.
    if (entry.entry !== undefined && !adopting) entry.fill(data.fill);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    entry.entry = data.entry;
    root.dataset.entry = String(data.entry);
  }
  if (adopting) entry.adopted();
  entry.showRound(data.number, data.dealer);
  entry.update(data);
  if (data.focus && root.dataset.focused !== String(data.focus)) {
    root.dataset.focused = String(data.focus);
    bringIntoView("hand_0", data.form, !entry.padSwitch.checked, data.focus);
  }
  if (data.refusal && root.dataset.refusal !== String(data.refusal)) {
    root.dataset.refusal = String(data.refusal);
    bringIntoView(data.firstError, data.form, data.firstError !== "save", data.refusal);
  }
  if (data.shown && root.dataset.shown !== String(data.shown)) {
    // A round was just stored and this is the next round's form: now the rest of the
    // game (standings, chart) is drawn again, after the form.
    root.dataset.shown = String(data.shown);
    component.setTriggerValue("shown", data.shown);
  }
}
