/* The phone pad: join, enter or roll your dice, seal your bid, answer decisions, see the outcome.
   Every view event replaces the rendered state; only the player's unsent choices (a draft) live
   here between events. */
"use strict";

(() => {
  const { el, button, icon, die, dicePips, COLORS, SYMBOLS, SYMBOL_WORD, TOKEN_TITLE, SYMBOL_TOKEN } = GD;
  const app = document.getElementById("app");
  const errorBox = document.getElementById("error");
  const banner = document.getElementById("banner");
  const who = document.getElementById("who");
  const TOKEN_KEY = "gd-seat-token";

  GD.auth.seat = GD.store.get(TOKEN_KEY);
  // A host address scanned with a phone (/play?host=...) opens the host controls.
  const hostParam = new URLSearchParams(location.search).get("host");
  if (hostParam) { location.replace("/?host=" + encodeURIComponent(hostParam)); }
  // The host's own phone keeps a way to the host controls.
  if (GD.store.get("gd-host-token")) document.getElementById("hostlink").hidden = false;
  let view = null;
  let busy = false;
  const pendingIds = {};
  // The player's unsent choices, kept across view events; reset when the round changes.
  let draft = freshDraft(null);
  let joinForm = null;
  // Set when the table answered a join with "watch instead" (full table, or the game started).
  let watching = null;

  function freshDraft(round) {
    return { round, roll: null, selected: null, rollSource: null, proposalKey: null, touched: false, bids: [], give: {}, take: {}, editRoll: false };
  }

  function showError(message) {
    errorBox.hidden = !message;
    errorBox.textContent = message || "";
    if (message) errorBox.scrollIntoView({ block: "nearest" });
  }

  function accept(v) {
    if (!v) return;
    if (view && typeof v.version === "number" && typeof view.version === "number" && v.version < view.version && v.you && view.you && v.you.seat === view.you.seat) return;
    view = v;
    render();
  }

  // --- actions --------------------------------------------------------------------------------
  async function act(key, action) {
    if (busy) return;
    const requestId = pendingIds[key] || (pendingIds[key] = GD.uuid());
    busy = true;
    render();
    try {
      const res = await GD.api("POST", "/api/action", { action, version: view.version, request_id: requestId });
      delete pendingIds[key];
      showError(null);
      busy = false;
      if (res.view) accept(res.view); else render();
      return true;
    } catch (e) {
      if (e.status) delete pendingIds[key]; // refused: a new choice gets a new id; a lost answer is retried with the same one
      showError(e.message);
      busy = false;
      render();
      return false;
    }
  }

  async function join(name) {
    if (busy) return;
    busy = true;
    render();
    try {
      const res = await GD.api("POST", "/api/join", { name });
      if (res.token) {
        GD.store.set(TOKEN_KEY, res.token);
        GD.auth.seat = res.token;
        showError(null);
      } else if (res.spectator) {
        showError(null);
        watching = res.reason || "The game has already started: you are watching.";
      }
      busy = false;
      stream.reopen();
    } catch (e) {
      showError(e.message);
      busy = false;
      render();
    }
  }

  async function rollForMe() {
    if (busy) return;
    busy = true;
    render();
    try {
      const res = await GD.api("POST", "/api/roll-for-me", {});
      draft.roll = normalRoll((res.proposed_roll && res.proposed_roll.roll) || res.roll);
      draft.rollSource = "virtual";
      draft.touched = false;
      draft.selected = null;
      showError(null);
    } catch (e) {
      showError(e.message);
    }
    busy = false;
    render();
  }

  // --- helpers --------------------------------------------------------------------------------
  function myPlayer() {
    if (!view || !view.players || !view.you || view.you.seat === null || view.you.seat === undefined) return null;
    return view.players.find(p => p.name === view.you.name) || view.players[view.you.seat] || null;
  }
  const inGame = GD.inGame;
  function normalRoll(r) {
    const out = {};
    for (const c of COLORS) out[c] = ((r && r[c]) || []).slice();
    return out;
  }
  function rollFits(roll, stash) {
    return roll && COLORS.every(c => (roll[c] || []).length === (stash[c] || 0));
  }
  function rollComplete(roll) {
    return COLORS.every(c => roll[c].every(s => SYMBOLS.includes(s)));
  }
  function section(title, ...kids) {
    return el("section", "card", title ? el("h2", null, title) : null, ...kids);
  }
  function actButton(label, onclick, cls = "btn primary") {
    const b = button(label, onclick, cls + " act");
    if (busy || (view && view.paused)) b.disabled = true;
    return b;
  }

  // --- screens --------------------------------------------------------------------------------
  function renderJoin() {
    if (!joinForm) {
      const input = el("input", "big-input");
      GD.attrs(input, { type: "text", name: "name", maxlength: 20, autocomplete: "nickname", placeholder: "Your name", enterkeyhint: "go", "aria-label": "Your name" });
      const go = button("Join the table", null, "btn primary act");
      go.type = "submit";
      joinForm = el("form", "join", el("label", "label", "Your name at the table"), input, go);
      joinForm.addEventListener("submit", ev => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) { showError("Type your name first."); return; }
        join(name);
      });
    }
    joinForm.querySelector("button").disabled = busy;
    const seats = el("ul", "seats");
    for (const s of (view.lobby && view.lobby.seats) || []) seats.append(el("li", "seat seat-" + s.color, el("span", "swatch"), s.name));
    return [section("Join the game", joinForm), section("At the table", seats.children.length ? seats : el("p", "muted", "Nobody yet."))];
  }

  function renderLobbyWait() {
    const seats = el("ul", "seats");
    for (const s of view.lobby.seats || []) {
      const li = el("li", "seat seat-" + s.color, el("span", "swatch"), s.name);
      if (s.name === view.you.name) li.append(el("span", "muted", " (you)"));
      seats.append(li);
    }
    return [
      section(null, el("p", "lead", "You are in. Your bid cards are ", el("strong", "seat-" + view.you.color, view.you.color), "."),
        el("p", "muted", "Waiting for the host to start the game.")),
      section("At the table", seats),
    ];
  }

  function renderSpectator() {
    const colors = GD.seatColors(view);
    const out = [el("p", "lead center", "You are watching this game.")];
    if (watching) out.push(el("p", "muted center", watching));
    if (!inGame(view)) {
      const seats = el("ul", "seats");
      for (const s of (view.lobby && view.lobby.seats) || []) seats.append(el("li", "seat seat-" + s.color, el("span", "swatch"), s.name));
      out.push(section("The game has not started yet", seats));
      return out;
    }
    if (view.finished) out.push(GD.winnersBanner(view, colors));
    else if (view.decision) out.push(section(null, el("p", "lead", GD.decisionText(view))));
    out.push(section("Tokens", GD.tokenBoard(view, colors)), section("Stashes", GD.stashTable(view, colors)));
    const r = view.reveal || view.last_round;
    if (r) out.push(GD.revealPanel(r, colors, { compact: true }));
    return out;
  }

  function lastRoundCard(colors) {
    const r = view.last_round;
    if (!r) return null;
    const box = section(`Round ${r.round}: what to move`);
    box.classList.add("outcome-card");
    if (r.instructions.length) {
      const ol = el("ol", "steps");
      for (const line of r.instructions) ol.append(el("li", line.startsWith(view.you.name + ":") ? "my-step" : "", line));
      box.append(ol);
    } else box.append(el("p", "muted", "Nothing to move."));
    const more = el("details", "more", el("summary", null, "All bids and scores"), GD.revealPanel(r, colors, { title: `Round ${r.round}`, instructions: false, compact: true }));
    box.append(more);
    return box;
  }

  function renderRoll(me) {
    const stash = me.stash;
    // A new reading (the camera's, or virtual dice) replaces the pad's dice unless the player has
    // already corrected some by hand.
    const proposed = view.proposed_roll && view.proposed_roll.roll ? normalRoll(view.proposed_roll.roll) : null;
    const proposalKey = proposed ? JSON.stringify([view.proposed_roll.source, proposed]) : null;
    if (proposed && rollFits(proposed, stash) && proposalKey !== draft.proposalKey && !draft.touched) {
      draft.roll = proposed;
      draft.proposalKey = proposalKey;
      draft.rollSource = view.proposed_roll.source === "virtual" ? "virtual" : "camera";
      draft.selected = null;
    }
    if (!draft.roll || !rollFits(draft.roll, stash)) {
      if (me.roll && rollFits(normalRoll(me.roll), stash)) { draft.roll = normalRoll(me.roll); draft.rollSource = "sent"; }
      else {
        draft.roll = {};
        for (const c of COLORS) draft.roll[c] = Array(stash[c] || 0).fill(null);
        draft.rollSource = null;
      }
      draft.touched = false;
    }
    const roll = draft.roll;
    if (draft.selected === null) {
      for (const c of COLORS) { const i = roll[c].indexOf(null); if (i >= 0) { draft.selected = [c, i]; break; } }
    }
    const box = section("Your dice");
    box.classList.add("rollpad");
    const hint = draft.rollSource === "camera" ? "The camera read these dice. Tap a die to correct it."
      : draft.rollSource === "virtual" ? "Rolled for you. Roll your real dice to match, or confirm."
      : "Roll your dice, then tap each die to set its symbol, or let the table roll for you.";
    box.append(el("p", "muted", hint));
    const problems = draft.rollSource === "camera" && view.proposed_roll ? (view.proposed_roll.problems || []) : [];
    if (problems.length) {
      // What the camera saw that does not add up: re-roll, read again, or tap the dice right.
      const warn = el("div", "camera-problems", el("strong", null, "The camera is not sure:"));
      const list = el("ul");
      for (const p of problems) list.append(el("li", null, p));
      warn.append(list, el("p", "small", "Tap the dice marked ? to set them, or roll again and let the camera read them."));
      box.append(warn);
    }
    const cameraOn = view.camera && !view.camera.error;
    if (cameraOn && !view.proposed_roll && !draft.touched) {
      box.append(el("p", "lead", "Roll your dice in your zone: the camera reads them when they stop."));
    }
    if (draft.rollSource === "camera" && view.proposed_roll && view.proposed_roll.has_crop) {
      const img = el("img", "crop");
      img.alt = "Your dice as the camera saw them";
      img.src = "/api/proposed-crop.jpg?token=" + encodeURIComponent(GD.auth.seat || "") + "&v=" + view.version;
      img.addEventListener("error", () => { img.hidden = true; });
      box.append(img);
    }
    for (const c of COLORS) {
      if (!roll[c].length) continue;
      const row = el("div", "dice-row");
      row.append(el("span", "row-label", `${c} ×${roll[c].length}`));
      roll[c].forEach((s, i) => {
        const b = button(null, () => { draft.selected = [c, i]; render(); }, `die-btn die die-${c}` + (s ? "" : " empty"));
        if (s) b.append(icon(s)); else b.append(el("span", "q", "?"));
        b.setAttribute("aria-label", `${c} die ${i + 1}: ${s || "not set"}`);
        b.dataset.color = c;
        b.dataset.index = i;
        if (draft.selected && draft.selected[0] === c && draft.selected[1] === i) b.classList.add("selected");
        row.append(b);
      });
      box.append(row);
    }
    if (draft.selected) {
      const [c, i] = draft.selected;
      const pal = el("div", "palette");
      pal.append(el("p", "small muted", `Symbol on ${c} die ${i + 1}:`));
      const btns = el("div", "palette-btns");
      for (const s of SYMBOLS) {
        const b = button(null, () => {
          roll[c][i] = s;
          draft.touched = true;
          draft.selected = null;
          for (const cc of COLORS) { const j = roll[cc].indexOf(null); if (j >= 0) { draft.selected = [cc, j]; break; } }
          render();
        }, "btn sym-btn");
        b.append(icon(s), el("span", null, SYMBOL_WORD[s]));
        b.dataset.symbol = s;
        btns.append(b);
      }
      pal.append(btns);
      box.append(pal);
    }
    const confirm = actButton("Confirm dice", async () => {
      if (await act(`roll:${view.round}`, { kind: "roll", player: me.name, roll: normalRoll(roll) })) {
        draft.editRoll = false;
        render();
      }
    });
    confirm.id = "confirm-roll";
    if (!rollComplete(roll)) confirm.disabled = true;
    const virtual = actButton("Roll for me", rollForMe, "btn");
    virtual.id = "roll-for-me";
    box.append(el("div", "actions", virtual, confirm));
    if (draft.rollSource === "camera") {
      // The camera read the dice wrong or missed one: roll again and let it read them anew.
      const again = actButton("I rolled again: read my dice", async () => {
        busy = true;
        render();
        try {
          await GD.api("POST", "/api/camera/reroll", {});
          draft.roll = null;
          draft.selected = null;
          showError(null);
        } catch (e) { showError(e.message); }
        busy = false;
        render();
      }, "btn link");
      box.append(again);
    }
    if (cameraOn) {
      // The fallback when the settle trigger does not fire (a hand in view, a lamp flickering).
      const readNow = actButton("Read now", async () => {
        busy = true;
        render();
        try { await GD.api("POST", "/api/camera/read-now", {}); showError(null); }
        catch (e) { showError(e.message); }
        busy = false;
        render();
      }, "btn link");
      readNow.id = "read-now";
      box.append(readNow);
    }
    if (draft.editRoll) box.append(button("Keep my sent dice", () => { draft.editRoll = false; draft.roll = null; draft.touched = false; render(); }, "btn link"));
    return box;
  }

  function renderBids(me, myP) {
    const n = view.me.bids_required;
    const hand = view.me.hand;
    const roll = myP.roll;
    const counts = {};
    for (const s of SYMBOLS) counts[s] = COLORS.reduce((k, c) => k + (roll[c] || []).filter(x => x === s).length, 0);
    while (draft.bids.length < n) draft.bids.push({ symbol: null, favor: null });
    draft.bids.length = n;
    const streetsBonus = view.tokens.streets.controller === me.name ? GD.countDice(view.tokens.streets.dice) : 0;

    const out = [];
    const rollBox = section("Your roll");
    const r = el("div", "roll");
    for (const c of COLORS) for (const s of roll[c] || []) r.append(die(c, s));
    rollBox.append(r);
    rollBox.append(button("Change dice", () => { draft.editRoll = true; draft.roll = normalRoll(roll); draft.rollSource = "sent"; draft.touched = true; render(); }, "btn link"));
    out.push(rollBox);

    draft.bids.forEach((bid, k) => {
      const other = draft.bids.filter((_, j) => j !== k);
      const box = section(n > 1 ? `Bid ${k + 1} of ${n}` : "Your bid");
      box.classList.add("bidpad");
      box.dataset.bid = k;
      const syms = el("div", "choice-grid syms");
      for (const s of SYMBOLS) {
        if (!counts[s]) continue;
        const b = button(null, () => { bid.symbol = s; render(); }, "btn choice sym-choice");
        b.append(icon(s), el("span", null, TOKEN_TITLE[SYMBOL_TOKEN[s]]), el("span", "count", `×${counts[s]}`));
        b.dataset.symbol = s;
        if (bid.symbol === s) b.classList.add("selected");
        if (other.some(o => o.symbol === s)) b.disabled = true;
        syms.append(b);
      }
      box.append(el("p", "label", "Token (symbols on your dice)"), syms);
      box.append(el("p", "label", "Favor card"));
      if (!hand.length) box.append(el("p", "muted", "Your hand is empty: this bid goes without a favor."));
      else {
        const favs = el("div", "choice-grid favors");
        hand.forEach((value, idx) => {
          const b = button(null, () => { bid.favor = idx; render(); }, "btn choice favor-choice");
          b.append(GD.favorCard(value));
          b.dataset.favor = value;
          if (bid.favor === idx) b.classList.add("selected");
          if (other.some(o => o.favor === idx)) b.disabled = true;
          favs.append(b);
        });
        box.append(favs);
      }
      if (bid.symbol) {
        const favor = bid.favor === null ? 0 : hand[bid.favor];
        const total = counts[bid.symbol] + favor + streetsBonus;
        box.append(el("p", "projected", `Score: ${counts[bid.symbol]} dice + ${favor} favor` + (streetsBonus ? ` + ${streetsBonus} Streets` : "") + ` = ${total}`));
      }
      out.push(box);
    });
    const ready = draft.bids.every(b => b.symbol && (b.favor !== null || !hand.length)) && n > 0;
    const seal = actButton(n > 1 ? "Seal both bids" : "Seal my bid", () => {
      act(`bid:${view.round}`, { kind: "bid", player: me.name, bids: draft.bids.map(b => ({ symbol: b.symbol, favor: b.favor === null ? null : hand[b.favor] })) });
    }, "btn primary seal");
    seal.id = "seal";
    if (!ready) seal.disabled = true;
    out.push(el("div", "actions sticky", seal));
    return out;
  }

  function renderSealed() {
    const box = section(null);
    box.classList.add("sealed");
    box.append(el("div", "sealed-mark", "Sealed"));
    const list = el("ul", "mybids");
    for (const b of view.me.bids || []) {
      list.append(el("li", null, el("span", "symlabel", icon(b.symbol), TOKEN_TITLE[SYMBOL_TOKEN[b.symbol]]), " with ", GD.favorCard(b.favor)));
    }
    box.append(list);
    const waiting = view.waiting_for || [];
    box.append(el("p", "lead", waiting.length ? "Waiting for " + waiting.join(", ") + "." : "Revealing…"));
    box.id = "sealed";
    return box;
  }

  function stepper(label, value, max, onChange) {
    const minus = button("−", () => onChange(value - 1), "btn step");
    const plus = button("+", () => onChange(value + 1), "btn step");
    minus.disabled = value <= 0;
    plus.disabled = value >= max;
    return el("div", "stepper", el("span", "step-label", label), minus, el("span", "step-val", String(value)), plus);
  }

  function renderDecision(me) {
    const d = view.me.decision;
    const key = `decision:${view.round}:${d.kind}`;
    const box = section(null);
    box.classList.add("decision");
    box.dataset.kind = d.kind;
    const givable = view.me.givable;
    if (d.kind === "speakeasy") {
      box.append(el("h2", null, "The Speakeasy is yours"), el("p", null, "Swap up to 3 dice of your stash for as many dice on the Speakeasy, or keep your dice."));
      const gives = COLORS.reduce((n, c) => n + (draft.give[c] || 0), 0);
      const takes = COLORS.reduce((n, c) => n + (draft.take[c] || 0), 0);
      const giveBox = el("div", "side", el("h3", null, "You give"));
      for (const c of d.options) {
        const v = draft.give[c] || 0;
        giveBox.append(stepper(el("span", null, die(c, null, "pip"), ` ${c}`), v, Math.min(givable[c], v + 3 - gives), x => { draft.give[c] = x; render(); }));
      }
      if (!d.options.length) giveBox.append(el("p", "muted", "You have no dice you may give."));
      const takeBox = el("div", "side", el("h3", null, "You take"));
      for (const c of d.take_options) {
        const v = draft.take[c] || 0;
        takeBox.append(stepper(el("span", null, die(c, null, "pip"), ` ${c}`), v, Math.min(d.speakeasy[c], v + 3 - takes), x => { draft.take[c] = x; render(); }));
      }
      box.append(el("div", "exchange", giveBox, takeBox));
      box.append(el("p", "muted", `On the Speakeasy: ${GD.diceWords(d.speakeasy)}.`));
      const list = obj => COLORS.flatMap(c => Array(obj[c] || 0).fill(c));
      const swap = actButton(gives ? `Exchange ${gives} ${gives === 1 ? "die" : "dice"}` : "Exchange", () => act(key, { kind: "speakeasy", player: me.name, give: list(draft.give), take: list(draft.take) }));
      swap.id = "exchange";
      if (!gives || gives !== takes) swap.disabled = true;
      if (gives !== takes) box.append(el("p", "warn", `Give and take the same number of dice (${gives} and ${takes}).`));
      box.append(el("div", "actions", actButton("No exchange", () => act(key, { kind: "speakeasy", player: me.name, give: [], take: [] }), "btn"), swap));
    } else if (d.kind === "streets") {
      box.append(el("h2", null, "The Streets are yours"), el("p", null, "Put one die of your stash on the Streets, or none."));
      const grid = el("div", "choice-grid colors");
      for (const c of d.options) {
        const b = actButton(null, () => act(key, { kind: "streets", player: me.name, color: c }), "btn choice color-choice");
        b.append(die(c, null, "pip"), el("span", null, `A ${c} die`));
        b.dataset.color = c;
        grid.append(b);
      }
      box.append(grid, el("div", "actions", actButton("No die", () => act(key, { kind: "streets", player: me.name, color: null }), "btn")));
    } else if (d.kind === "investigator_color") {
      box.append(el("h2", null, "Pin it on the Investigator"), el("p", null, "Choose a color: all your dice of that color go on the Investigator."));
      const grid = el("div", "choice-grid colors");
      for (const c of d.options) {
        const b = actButton(null, () => act(key, { kind: "investigator_color", player: me.name, color: c }), "btn choice color-choice");
        b.append(dicePips({ [c]: givable[c] }), el("span", null, `${givable[c]} ${c}`));
        b.dataset.color = c;
        grid.append(b);
      }
      box.append(grid);
    } else if (d.kind === "investigator_take") {
      box.append(el("h2", null, "You hold the Investigator"), el("p", null, "Take one die off the Investigator into your stash."));
      box.append(el("p", "muted", `On the Investigator: ${GD.diceWords(d.investigator)}.`));
      const grid = el("div", "choice-grid colors");
      for (const c of d.options) {
        const b = actButton(null, () => act(key, { kind: "investigator_take", player: me.name, color: c }), "btn choice color-choice");
        b.append(die(c, null, "pip"), el("span", null, `Take a ${c} die`));
        b.dataset.color = c;
        grid.append(b);
      }
      box.append(grid);
      if (d.can_decline) box.append(el("div", "actions", actButton("Decline (you control the Lawyer)", () => act(key, { kind: "investigator_take", player: me.name, color: null }), "btn decline")));
    }
    return box;
  }

  function waitingLine() {
    const waiting = (view.waiting_for || []).filter(n => n !== view.you.name);
    const p = el("p", "waiting muted", waiting.length ? "Still to seal: " + waiting.join(", ") + "." : "Everyone else has sealed.");
    p.id = "waiting";
    return p;
  }

  function renderMine(me) {
    const hand = el("span", "hand-cards");
    // A sealed favor card is still in the hand until the reveal: show it as played.
    const sealed = view.phase === "bidding" ? (view.me.bids || []).map(b => b.favor).filter(v => v !== null) : [];
    for (const v of view.me.hand) {
      const i = sealed.indexOf(v);
      if (i >= 0) { sealed.splice(i, 1); hand.append(GD.favorCard(v, "played")); } else hand.append(GD.favorCard(v));
    }
    if (!view.me.hand.length) hand.append(el("span", "muted", "no cards"));
    return section("Your stash", el("div", "mine", dicePips(me.stash, "no dice left"), el("div", "handrow", el("span", "label", "Favors"), hand)));
  }

  function renderSeat() {
    const me = myPlayer();
    const colors = GD.seatColors(view);
    const out = [];
    if (!me) return renderLobbyWait();
    if (view.round !== draft.round) draft = freshDraft(view.round);
    if (view.finished) {
      out.push(GD.winnersBanner(view, colors));
      if (view.last_round) out.push(lastRoundCard(colors));
      out.push(section("Tokens", GD.tokenBoard(view, colors)));
      return out;
    }
    if (view.phase === "bidding") {
      if (!me.rolled || draft.editRoll) {
        out.push(renderRoll(me), waitingLine());
        out.push(lastRoundCard(colors));
      } else if (!view.me.bids) {
        out.push(...renderBids(me, me), waitingLine());
      } else {
        out.push(renderSealed());
        out.push(lastRoundCard(colors));
      }
    } else if (view.phase === "resolving") {
      if (view.me.decision) out.push(renderDecision(me));
      else out.push(section(null, el("p", "lead", GD.decisionText(view) || "Resolving…")));
      if (view.reveal) out.push(GD.revealPanel(view.reveal, colors, { instructionsTitle: "On the table so far", compact: true }));
    }
    out.push(renderMine(me));
    out.push(section("Tokens", GD.tokenBoard(view, colors)));
    return out;
  }

  /** What the pad asks for now, as a word (for styling and for the browser tests). */
  function step(seated) {
    if (!seated) return !watching && view.lobby && view.lobby.open && !inGame(view) ? "join" : "spectator";
    if (!inGame(view)) return "lobby";
    if (view.finished) return "finished";
    const me = myPlayer();
    if (view.phase === "bidding") return !me.rolled || draft.editRoll ? "roll" : !view.me.bids ? "bid" : "sealed";
    return view.me && view.me.decision ? "decide" : "wait";
  }

  function render() {
    if (!view) return;
    const you = view.you || {};
    const seated = you.seat !== null && you.seat !== undefined;
    who.textContent = seated ? you.name : "Gangster Dice";
    who.className = seated && you.color ? "seat-" + you.color : "";
    GD.setBanner(banner, view.paused ? "The host has paused the game." : "");
    let parts;
    if (!seated) parts = !watching && view.lobby && view.lobby.open && !inGame(view) ? renderJoin() : renderSpectator();
    else if (!inGame(view)) parts = renderLobbyWait();
    else parts = renderSeat();
    app.replaceChildren(...parts.filter(Boolean));
    const now = step(seated);
    // A message about the last screen's action goes away when the screen moves on.
    if (app.dataset.step && app.dataset.step !== now) showError(null);
    app.dataset.step = now;
    if (busy) for (const b of app.querySelectorAll("button.act")) b.disabled = true;
    wake();
  }

  // --- screen wake lock while a game runs -------------------------------------------------------
  let lock = null;
  async function wake() {
    const want = view && inGame(view) && !view.finished && document.visibilityState === "visible";
    if (!("wakeLock" in navigator)) return;
    if (want && !lock) {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
      } catch (e) { lock = null; }
    } else if (!want && lock) {
      try { await lock.release(); } catch (e) { /* already released */ }
      lock = null;
    }
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wake(); });

  const stream = GD.live(v => accept(v), GD.connBadge(document.getElementById("conn")));
})();
