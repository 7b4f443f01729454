// The Play page's round entry, drawn here in the browser (see dutch_app/ui/play_entry.py).
//
// The entry is this element's: what is typed stays here, and the server never writes into
// a field. The element holds one entry at a time, with an id of its own and the round
// number it is for (its basis). Save sends the whole entry to the app's round route, the
// one way a round is stored, and draws the route's answer: the next round's empty form,
// the problems by field, or, when another phone was quicker or the game ended, one
// sentence next to Save with the choices it leaves. After a pause in typing the entry is
// also sent to the page ("draft"), which answers with the preview and the penalty count.
//
// The page's data says which round the game is at (its version and next round number).
// An empty form simply becomes that round's form; an entry typed for an earlier round
// keeps its text, and the sentence next to Save offers to save it as the next round.
//
// Each part stands in a box with a lasting name (st-key-play_round_hand_0, …_caller,
// …_call_type, …_penalty, …_pad, …_save), which is what the page's styles, its scripts
// and the browser tests address. Every text from the server goes in as text, never as
// markup.

const DRAFT_MS = 250; // a pause in typing this long sends the entry for the preview
const SAVE_TIMEOUT_MS = 10000; // a save with no answer after this long has failed
const WHOLE = /^-?[0-9]*$/; // a total, or the start of one
const PAD_KEY = "dutch-card-pad"; // this device's choice of the card pad (localStorage)
const OUTBOX_KEY = "dutch-outbox"; // rounds saved here and not yet stored, by account and game
const RETRY_FIRST_MS = 2000; // the outbox tries again this long after a failed send …
const RETRY_MOST_MS = 30000; // … waiting twice as long each time, up to this

function make(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined && text !== null) element.textContent = String(text);
  return element;
}

// The text with its place-holders filled in, taken as they are: a name may hold anything
// (String.replace would read "$&" in it as a pattern).
function fillIn(text, values) {
  let filled = text;
  for (const [holder, value] of Object.entries(values)) {
    filled = filled.split(`{${holder}}`).join(String(value));
  }
  return filled;
}

function isTotal(text) {
  return WHOLE.test(text.trim());
}

function cardTokens(text) {
  return text.replace(/,\s*$/, "").split(/\s+/).filter(Boolean);
}

function newId() {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

function remembered(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (error) {
    return null; // storage blocked: nothing remembered
  }
}

function remember(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    // storage blocked or full: the choice lasts as long as the page
  }
}

function signature(data) {
  return JSON.stringify([
    data.form, data.account, data.game, data.players, data.callers, data.calls, data.texts,
    data.pad,
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
    this.timer = null; // a draft waiting for a pause in typing
    this.posting = false; // a round is on its way to the round route
    this.seq = 0; // drafts sent; the page says which one its preview is of
    this.id = null; // the entry's id
    this.basis = 0; // the round number the entry is for
    this.version = -1; // the game's version as last drawn here
    this.number = 0; // the game's next round number, as last drawn here
    this.refused = false; // a save of this entry was refused: its problems follow the fields
    this.choice = null; // what the sentence next to Save offers: {kind, next}
    this.target = 0; // the pad's field: a seat, or "penalty"
    this.total = false; // the pad enters totals instead of cards
    this.nextWaits = false; // Next waits for the server's word on the penalty cards
    this.outbox = []; // entries saved here and not yet answered by the round route
    this.flushing = false; // the outbox is being sent
    this.retry = null; // the outbox's next try after a failed send
    this.retryMs = RETRY_FIRST_MS;
    this.held = null; // an entry of the outbox the route did not store: {entry, answer}
    this.lastSent = ""; // "Round 4 sent.", after a round from the outbox was stored
    window.addEventListener("online", () => this.flush());
    window.addEventListener("offline", () => this.showOutbox());
  }

  build(data) {
    const texts = data.texts;
    this.form = data.form;
    this.root.replaceChildren();
    this.heading = make("h2", "dutch-entry-heading"); // under the page's one h1
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
    this.padSwitch.checked = remembered(PAD_KEY) === "on";
    this.padSwitch.addEventListener("change", () => {
      remember(PAD_KEY, this.padSwitch.checked ? "on" : "off");
      this.drawPad();
    });
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
    this.save.addEventListener("click", () => this.saveTapped());
    // The sentence next to Save: a stored round, a game that moved on, a failure.
    this.notice = make("div", `dutch-entry-notice st-key-${this.form}_notice`);
    this.notice.setAttribute("role", "status");
    this.notice.hidden = true;
    this.noticeText = make("p", "dutch-entry-notice-text");
    this.again = make("button", "dutch-entry-save");
    this.again.type = "button";
    this.again.addEventListener("click", () => this.saveAgain());
    this.discard = make("button", "dutch-entry-option", texts.discard);
    this.discard.type = "button";
    this.discard.addEventListener("click", () => this.discarded());
    const choices = make("div", "dutch-entry-options");
    choices.append(this.again, this.discard);
    this.notice.append(this.noticeText, choices);
    // What waits in this phone's outbox, and whether the phone is offline.
    this.outboxBox = make("div", `dutch-entry-outbox st-key-${this.form}_outbox`);
    this.outboxBox.setAttribute("role", "status");
    this.outboxBox.hidden = true;
    this.offline = make("span", "dutch-entry-badge", texts.offline);
    this.outboxText = make("span", "dutch-entry-outbox-text");
    this.heldAgain = make("button", "dutch-entry-save");
    this.heldAgain.type = "button";
    this.heldAgain.hidden = true;
    this.heldAgain.addEventListener("click", () => this.heldChosen(true));
    this.heldDiscard = make("button", "dutch-entry-option", texts.discard);
    this.heldDiscard.type = "button";
    this.heldDiscard.hidden = true;
    this.heldDiscard.addEventListener("click", () => this.heldChosen(false));
    const heldChoices = make("div", "dutch-entry-options");
    heldChoices.append(this.heldAgain, this.heldDiscard);
    this.outboxBox.append(this.offline, this.outboxText, heldChoices);
    saveBox.append(this.outboxBox, this.notice, this.save);
    this.root.append(
      this.caller.box, this.call.box, this.callerError, this.preview, this.penalty.box,
      this.summary, saveBox,
    );
  }

  read() {
    return {
      hands: this.hands.map((field) => field.input.value),
      caller: chosen(this.caller.group),
      call: chosen(this.call.group),
      penalty: this.penalty.input.value,
    };
  }

  typed() {
    const values = this.read();
    return values.hands.some((hand) => hand.trim()) || values.caller !== null
      || values.call !== null || Boolean(values.penalty.trim());
  }

  fill(values) {
    this.hands.forEach((field, seat) => {
      field.input.value = (values && values.hands && values.hands[seat]) || "";
      delete field.input.dataset.cards;
    });
    setChoice(this.caller.group, values ? values.caller : null);
    setChoice(this.call.group, values ? values.call : null);
    this.penalty.input.value = (values && values.penalty) || "";
    delete this.penalty.input.dataset.cards;
    this.target = 0;
  }

  // A new entry: empty (or holding ``kept``), for round ``basis``.
  start(basis, kept) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.id = kept ? kept.id : newId();
    this.basis = basis;
    this.refused = false;
    this.fill(kept);
    this.showProblems(null);
    this.showCheck(null);
    this.root.dataset.entry = this.id;
  }

  payload() {
    this.seq += 1;
    return { id: this.id, basis: this.basis, seq: this.seq, ...this.read() };
  }

  // Something in the entry changed: show what follows from it here, and send the entry
  // to the page once the typing pauses (a tap is sent at once).
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

  // Whether the page has seen the entry as it stands (its penalty count is current).
  current() {
    return !this.timer && this.checked !== undefined && this.checked.seq >= this.seq;
  }

  // Save: the entry joins this phone's outbox (kept in the browser's storage, for this
  // account and game) and the outbox is sent to the round route in order, each entry as
  // the round it is for; ``reopen`` reopens an ended game with it.
  saveTapped(reopen = false) {
    if (this.posting) return; // a second tap before the first was answered
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const entry = { ...this.payload(), round: this.basis, reopen };
    const at = this.outbox.findIndex((queued) => queued.id === entry.id);
    if (at >= 0) this.outbox[at] = entry;
    else this.outbox.push(entry);
    this.keepOutbox();
    this.flush();
  }

  outboxKey() {
    return `${OUTBOX_KEY}-${this.data.account}-${this.data.game}`;
  }

  loadOutbox() {
    let kept = [];
    try {
      kept = JSON.parse(remembered(this.outboxKey()) || "[]");
    } catch (error) {
      kept = []; // not ours: nothing kept
    }
    this.outbox = Array.isArray(kept)
      ? kept.filter((entry) => entry && typeof entry.id === "string" && Array.isArray(entry.hands))
      : [];
  }

  keepOutbox() {
    try {
      if (this.outbox.length) {
        window.localStorage.setItem(this.outboxKey(), JSON.stringify(this.outbox));
      } else {
        window.localStorage.removeItem(this.outboxKey());
      }
    } catch (error) {
      // storage blocked or full: the outbox lasts as long as the page
    }
  }

  // Send what waits, in order, until the outbox is empty, the connection fails (then
  // again later, waiting longer each time) or an entry needs the person's choice.
  async flush() {
    if (this.flushing || this.held || !this.outbox.length) return;
    this.flushing = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.showOutbox();
    while (this.outbox.length && !this.held) {
      const entry = this.outbox[0];
      const { answer, status } = await this.post(entry);
      if (answer && answer.outcome === "other_account") break; // kept for its own account
      if (!answer && (status === 0 || status >= 500)) {
        this.retry = setTimeout(() => this.flush(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MOST_MS);
        if (this.outbox.some((queued) => queued.id === this.id)) this.showQueued();
        break;
      }
      this.retryMs = RETRY_FIRST_MS;
      this.outbox.shift();
      this.keepOutbox();
      if (entry.id === this.id) this.answered(answer, status);
      else if (answer && answer.outcome === "stored") this.sent(entry, answer);
      else this.held = { entry, answer, status };
    }
    this.flushing = false;
    this.showOutbox();
  }

  async post(entry) {
    const data = this.data;
    const body = {
      ...entry,
      account: data.account,
      game: data.game,
      tab: data.tab,
      lang: data.lang,
      locale: navigator.language,
    };
    this.posting = true;
    this.save.disabled = true;
    this.again.disabled = true;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), SAVE_TIMEOUT_MS);
    try {
      const response = await fetch(data.route, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
        cache: "no-store",
        signal: controller.signal,
      });
      const answer = response.ok ? await response.json() : null;
      return { answer, status: response.status };
    } catch (error) {
      return { answer: null, status: 0 }; // no answer: nothing is known to be stored
    } finally {
      clearTimeout(timeout);
      this.posting = false;
      this.save.disabled = false;
      this.again.disabled = false;
    }
  }

  // The route's answer to the entry on the form.
  answered(answer, status) {
    const texts = this.data.texts;
    const outcome = answer ? answer.outcome : null;
    if (outcome === "stored") {
      this.stored(answer);
    } else if (outcome === "invalid") {
      this.refused = true;
      this.showNotice(null);
      this.showProblems(answer);
      bringIntoView(answer.first, this.form, answer.first !== "save");
    } else if (outcome === "moved_on") {
      this.showNotice({ kind: "moved", next: answer.next, by: answer.by });
      this.changed(0); // the page runs again, so its standings catch up with the game
    } else if (outcome === "ended") {
      this.showNotice({ kind: "ended", text: answer.message, reopen: answer.reopen });
      this.changed(0);
    } else if (outcome === "refused") {
      this.showNotice({ kind: "failed", text: answer.message });
    } else if (status === 401) {
      this.showNotice({ kind: "failed", text: texts.signedOut });
    } else {
      this.showNotice({ kind: "failed", text: texts.notSaved });
    }
  }

  // The entry on the form waits in the outbox: say so, and offer to go on.
  showQueued() {
    this.showNotice({ kind: "queued", next: this.basis + 1 });
  }

  // Go on to the next round while the last one waits to be sent.
  goOn() {
    const next = this.basis + 1;
    this.showNotice(null);
    this.start(next, null);
    this.number = Math.max(this.number, next);
    this.showRound(this.number, this.dealerOf(this.number));
    this.drawPad();
    this.showChoices();
    bringIntoView("hand_0", this.form, !this.padSwitch.checked);
  }

  dealerOf(number) {
    const players = this.data.players;
    return players[(number - 1) % players.length];
  }

  // A round from the outbox (not the one on the form) was stored.
  sent(entry, answer) {
    if (answer.version !== null && answer.version !== undefined) {
      this.version = Math.max(this.version, answer.version);
    }
    this.number = Math.max(this.number, answer.number + 1);
    this.lastSent = fillIn(this.data.texts.sent, { number: answer.number });
    this.component.setTriggerValue("stored", { id: entry.id, number: answer.number });
  }

  // What waits in the outbox, in one line, and an entry that needs a choice.
  showOutbox() {
    if (!this.outboxBox) return;
    const texts = this.data.texts;
    const held = this.held;
    const count = this.outbox.length + (held ? 1 : 0);
    let line = "";
    if (held) {
      line = this.heldSentence(held);
    } else if (this.outbox.length && this.outbox.some((entry) => entry.id !== this.id)) {
      const waiting = fillIn(count === 1 ? texts.waitingOne : texts.waitingMany, { count });
      line = this.flushing ? texts.sending : waiting;
    } else if (this.lastSent) {
      line = this.lastSent;
    }
    this.outboxText.textContent = line;
    this.offline.hidden = navigator.onLine !== false;
    this.outboxBox.hidden = !line && this.offline.hidden;
    this.outboxBox.dataset.waiting = String(count);
    const moved = held && held.answer && held.answer.outcome === "moved_on";
    const ended = held && held.answer && held.answer.outcome === "ended";
    const editable = held && this.editable(held);
    this.heldAgain.hidden = !(moved || editable || (ended && held.answer.reopen !== false));
    if (moved) this.heldAgain.textContent = fillIn(texts.saveAs, { number: held.answer.next });
    else if (editable) this.heldAgain.textContent = texts.edit;
    else this.heldAgain.textContent = texts.reopenAndSave;
    this.heldDiscard.hidden = !held;
  }

  heldSentence(held) {
    const texts = this.data.texts;
    const answer = held.answer;
    const round = held.entry.round;
    const kept = fillIn(texts.keptRound, { number: round });
    if (answer && answer.outcome === "moved_on") {
      return `${kept} ${this.movedSentence(answer.next, answer.by, round)}`;
    }
    if (answer && (answer.outcome === "ended" || answer.outcome === "refused")) {
      return `${kept} ${answer.message}`;
    }
    if (answer && answer.outcome === "invalid") return `${kept} ${answer.lines.join(" ")}`;
    return `${kept} ${held.status === 401 ? texts.signedOut : texts.notSaved}`;
  }

  // A kept round with a problem goes back into the form to be fixed, when it is the last
  // one kept and the form is empty (so nothing typed is lost, and the order stays).
  editable(held) {
    const answer = held.answer;
    const fixable = answer && (answer.outcome === "invalid" || answer.outcome === "refused");
    return Boolean(fixable) && !this.outbox.length && !this.typed();
  }

  // The person's choice for an entry from the outbox the route did not store.
  heldChosen(keep) {
    const held = this.held;
    if (!held) return;
    this.held = null;
    const answer = held.answer;
    if (keep && this.editable(held)) {
      this.showNotice(null);
      this.start(held.entry.round, held.entry);
      this.number = held.entry.round;
      this.showRound(this.number, this.dealerOf(this.number));
      if (answer.outcome === "invalid") {
        this.refused = true;
        this.showProblems(answer);
        bringIntoView(answer.first, this.form, answer.first !== "save");
      } else {
        this.showNotice({ kind: "failed", text: answer.message });
      }
      this.showOutbox();
      this.changed(0); // the page keeps it as the entry on the form
      return;
    }
    if (keep) {
      const entry = { ...held.entry };
      if (answer && answer.outcome === "moved_on") entry.round = answer.next;
      else entry.reopen = true;
      this.outbox.unshift(entry);
    }
    // What waited after it follows on from it.
    let round = keep ? this.outbox[0].round : held.entry.round - 1;
    for (const entry of this.outbox.slice(keep ? 1 : 0)) {
      round += 1;
      entry.round = round;
    }
    this.keepOutbox();
    this.showOutbox();
    this.flush();
  }

  // The round route stored the entry: the next round's empty form, at once; the page is
  // told, and draws the standings.
  stored(answer) {
    const entryId = this.id;
    if (answer.version !== null && answer.version !== undefined) {
      this.version = Math.max(this.version, answer.version);
    }
    this.number = Math.max(this.number, answer.number + 1);
    this.start(answer.number + 1, null);
    this.showRound(this.number, answer.dealer);
    this.showNotice({ kind: "saved", text: answer.line });
    this.drawPad();
    this.showChoices();
    if (!answer.over) bringIntoView("hand_0", this.form, !this.padSwitch.checked);
    this.component.setTriggerValue("stored", { id: entryId, number: answer.number });
  }

  saveAgain() {
    const choice = this.choice;
    if (!choice) return;
    if (choice.kind === "moved") {
      this.basis = choice.next;
      this.saveTapped();
    } else if (choice.kind === "ended") {
      this.saveTapped(true);
    } else if (choice.kind === "queued") {
      this.goOn();
    }
  }

  discarded() {
    this.outbox = this.outbox.filter((entry) => entry.id !== this.id);
    this.keepOutbox();
    this.showNotice(null);
    this.start(this.number, null);
    this.changed(0); // the page's copy of the entry is the empty one now
  }

  showRound(number, dealer) {
    this.heading.textContent = fillIn(this.data.texts.heading, { number });
    this.dealer.textContent = fillIn(this.data.texts.deals, { dealer });
  }

  // The sentence next to Save, with the choices it leaves (null: none).
  showNotice(choice) {
    this.choice = choice;
    const texts = this.data.texts;
    this.notice.hidden = !choice;
    this.notice.dataset.kind = choice ? choice.kind : "";
    this.save.hidden = Boolean(choice && (choice.kind === "moved" || choice.kind === "ended"));
    this.notice.setAttribute("role", choice && choice.kind === "queued" ? "alert" : "status");
    this.again.hidden = true;
    this.discard.hidden = true;
    if (!choice) return;
    if (choice.kind === "moved") {
      this.noticeText.textContent = this.movedSentence(choice.next, choice.by);
      this.again.textContent = fillIn(texts.saveAs, { number: choice.next });
      this.again.hidden = false;
      this.discard.hidden = false;
    } else if (choice.kind === "ended") {
      this.noticeText.textContent = choice.text;
      this.again.textContent = texts.reopenAndSave;
      this.again.hidden = choice.reopen === false;
      this.discard.hidden = false;
    } else if (choice.kind === "queued") {
      this.noticeText.textContent = fillIn(texts.queued, { number: choice.next - 1 });
      this.again.textContent = fillIn(texts.goOn, { number: choice.next });
      this.again.hidden = false;
    } else {
      this.noticeText.textContent = choice.text;
    }
    this.notice.scrollIntoView({ block: "nearest" });
  }

  // What other phones did since this entry was begun, and the question it leaves.
  movedSentence(next, by, basis = this.basis) {
    const texts = this.data.texts;
    let said;
    if (basis >= next) said = fillIn(texts.takenBack, { number: next });
    else if (next - basis > 1) said = fillIn(texts.savedMany, { first: basis, last: next - 1 });
    else if (by) said = fillIn(texts.savedBy, { number: basis, name: by });
    else said = fillIn(texts.savedElsewhere, { number: basis });
    return `${said} ${fillIn(texts.saveYours, { number: next })}`;
  }

  // The page drew the element: the game as it is, and its word on the entry.
  drawn(data) {
    this.data = data;
    if (data.version > this.version && this.choice && this.choice.kind === "saved") {
      this.showNotice(null); // the game moved on since: the line is old news
    }
    if (data.version > this.version) this.lastSent = "";
    if (data.version >= this.version) {
      this.version = data.version;
      this.number = data.number;
      // Rounds waiting in the outbox come first: the form is for the one after them (the
      // form's own entry, kept when it could not be sent, is not one of them).
      const waiting = [...this.outbox, ...(this.held ? [this.held.entry] : [])].filter(
        (entry) => entry.id !== this.id,
      );
      const after = Math.max(0, ...waiting.map((entry) => entry.round));
      if (after >= this.number) this.number = after + 1;
      const dealer = this.number === data.number ? data.dealer : this.dealerOf(this.number);
      this.showRound(this.number, dealer);
    }
    if (this.posting) return;
    const typed = this.typed();
    if (!typed && this.choice && this.choice.kind !== "saved" && this.choice.kind !== "failed") {
      this.showNotice(null);
    }
    if ((!typed || data.here) && this.basis !== this.number) {
      // An empty form is the form of the round on show; so is an entry when this tab
      // took the round before it back.
      this.basis = this.number;
    } else if (typed && this.basis !== this.number && !data.ended) {
      this.showNotice({ kind: "moved", next: this.number, by: data.savers[this.basis] || null });
    } else if (typed && data.ended && this.choice === null) {
      this.showNotice({ kind: "ended", text: data.texts.ended });
    } else if (this.choice && this.choice.kind === "moved" && this.basis === this.number) {
      this.showNotice(null); // the round it was for is the next one again (an undo)
    }
    const checked = data.checked;
    if (checked && checked.id === this.id && checked.seq >= (this.checked ? this.checked.seq : 0)) {
      this.checked = checked;
    } else if (!this.checked || this.checked.id !== this.id) {
      this.checked = { id: this.id, seq: 0, due: 0, preview: null, problems: null };
    }
    this.showCheck(this.checked);
    if (this.refused) this.showProblems(this.checked.problems);
    this.showChoices();
    if (this.nextWaits && this.current()) this.next();
    else this.drawPad();
    this.showOutbox();
    this.flush(); // the page was drawn: the server can be reached again
  }

  showProblems(problems) {
    const fields = (problems && problems.fields) || {};
    this.hands.forEach((field, seat) => showError(field.error, fields[`hand_${seat}`]));
    showError(this.callerError, fields.caller);
    showError(this.penalty.error, fields.penalty);
    this.summary.replaceChildren();
    this.summary.hidden = !problems;
    if (!problems) return;
    this.summary.appendChild(make("p", "", problems.heading));
    const list = make("ul");
    for (const line of problems.lines) list.appendChild(make("li", "", line));
    this.summary.appendChild(list);
  }

  // The page's word on the entry as last sent: the preview and the penalty field.
  showCheck(checked) {
    const due = checked ? checked.due : 0;
    this.penalty.box.hidden = !due;
    this.penalty.title.textContent = (checked && checked.penaltyLabel) || "";
    this.drawPreview(checked ? checked.preview : null);
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
    const cardsFor = make("span", "dutch-entry-caption", texts.cardsFor);
    cardsFor.id = `${this.form}-pad-for`;
    row.setAttribute("role", "group");
    row.setAttribute("aria-labelledby", cardsFor.id);
    row.appendChild(cardsFor);
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
    keys.setAttribute("role", "group");
    keys.setAttribute("aria-label", texts.pad);
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

  // A card tapped on the pad: added to the cards the pad wrote into this field, or
  // replacing a total. A single number card reads as its number, which is worth the same.
  addCard(token) {
    const input = this.field();
    const text = input.value.trim();
    const byPad = input.dataset.cards === text;
    const tokens = isTotal(text) && !byPad ? [] : cardTokens(text);
    this.writeCards(input, [...tokens, token]);
  }

  writeCards(input, tokens) {
    input.value = tokens.join(" ");
    input.dataset.cards = input.value;
  }

  addDigit(digit) {
    const input = this.field();
    let text = input.value.trim();
    if (!isTotal(text) || input.dataset.cards === text) text = ""; // a total replaces cards
    delete input.dataset.cards;
    if (digit === "-") input.value = text.startsWith("-") ? text.slice(1) : `-${text}`;
    else input.value = `${text}${digit}`;
  }

  removeLast() {
    const input = this.field();
    const text = input.value.trim();
    if (this.total && isTotal(text) && input.dataset.cards !== text) {
      input.value = text.slice(0, -1);
    } else {
      this.writeCards(input, cardTokens(text).slice(0, -1));
    }
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
    const checked = this.checked;
    if (checked && checked.due && chosen(this.caller.group) && !this.call.box.hidden) {
      targets.push(["penalty", checked.penaltyTarget]);
    }
    return targets;
  }
}

function showError(element, message) {
  element.hidden = !message;
  element.textContent = message || "";
}

function bringIntoView(name, form, focus) {
  const box = document.querySelector(`.st-key-${CSS.escape(form)}_${name}`);
  if (!box) return;
  box.scrollIntoView({ block: "center" });
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
  if (!entry) entry = root.dutchEntry = new Entry(root, component);
  entry.component = component;
  entry.data = data;
  if (root.dataset.shape !== signature(data)) {
    // A new element, or another game or line-up: the entry the page kept for this game
    // (as when the page is left and opened again), else an empty one for its next round.
    entry.build(data);
    root.dataset.shape = signature(data);
    entry.version = -1;
    entry.held = null;
    entry.loadOutbox(); // what this phone kept for this account and game, if anything
    entry.showNotice(null);
    const kept = data.kept;
    entry.start(kept ? kept.basis : data.number, kept);
  }
  entry.drawn(data);
}
