/* The table screen: the lobby with the join QR code, then the game as the whole table sees it,
   and (for the host) the controls. Every view event replaces the rendered state. */
"use strict";

(() => {
  const { el, button, COLORS } = GD;
  const app = document.getElementById("app");
  const hostBox = document.getElementById("host");
  const banner = document.getElementById("banner");
  const roundBox = document.getElementById("round");
  const HOST_KEY = "gd-host-token";

  // The host token arrives once in the address the server prints (?host=...); keep it, and take it
  // out of the address bar so that it does not show on the table's screen.
  const params = new URLSearchParams(location.search);
  if (params.get("host")) {
    GD.store.set(HOST_KEY, params.get("host"));
    params.delete("host");
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : ""));
  }
  // On the server machine itself the page is handed the host token.
  const given = document.querySelector('meta[name="gd-host"]');
  if (given && given.content) GD.store.set(HOST_KEY, given.content);
  GD.auth.host = GD.store.get(HOST_KEY);

  let view = null;
  let busy = false;
  let hostError = "";
  // Host choices not sent yet, kept across view events.
  const draft = { mode: "tutorial", characters: {}, handSizes: {}, move: { color: "white", source: "box", target: "speakeasy" },
    give: { player: "", source: "deck", value: "0" }, take: { player: "", value: "0", target: "discard" } };

  // The camera's last frame: one image element kept across renders, shown only once it loads.
  const camera = el("img", "camera");
  camera.alt = "The table seen by the camera";
  camera.hidden = true;
  camera.addEventListener("load", () => { camera.hidden = false; });
  camera.addEventListener("error", () => { camera.hidden = true; });
  let cameraVersion = null;

  async function host(path, body, confirmText) {
    if (busy) return;
    if (confirmText && !window.confirm(confirmText)) return;
    busy = true;
    render();
    try {
      const res = await GD.api("POST", path, body || {});
      hostError = "";
      busy = false;
      if (res.view) accept(res.view); else render();
    } catch (e) {
      hostError = e.message;
      busy = false;
      render();
    }
  }

  function accept(v) {
    if (!v) return;
    if (view && typeof v.version === "number" && typeof view.version === "number" && v.version < view.version) return;
    view = v;
    render();
  }

  const isHost = () => !!(view && view.you && view.you.host);
  const inGame = GD.inGame;

  // --- lobby ----------------------------------------------------------------------------------
  function renderLobby() {
    const lobby = view.lobby || { seats: [] };
    const seats = lobby.seats || [];
    const join = el("section", "join-panel",
      el("img", "qr"),
      el("p", "join-caption", "Scan to join, or open"),
      el("p", "join-url", view.join_url || ""));
    const qr = join.querySelector("img");
    qr.src = "/qr.svg";
    qr.alt = "QR code to join: " + (view.join_url || "");

    const list = el("ul", "lobby-seats");
    for (const s of seats) {
      const li = el("li", "seat seat-" + s.color, el("span", "swatch"), el("span", "seat-name", s.name));
      li.dataset.seat = s.seat;
      if (s.connected === false) li.append(el("span", "muted small", " (away)"));
      if (isHost() && draft.mode === "characters") {
        const sel = el("select", "character");
        sel.setAttribute("aria-label", `Character for ${s.name}`);
        const none = el("option", null, "dealt at random");
        none.value = "";
        sel.append(none);
        for (const c of characterNames()) {
          const o = el("option", null, c);
          o.value = c;
          if (draft.characters[s.name] === c) o.selected = true;
          sel.append(o);
        }
        sel.addEventListener("change", () => { draft.characters[s.name] = sel.value; });
        const size = el("select", "hand-size");
        size.setAttribute("aria-label", `Favor cards for ${s.name}`);
        for (let n = 1; n <= 8; n++) {
          const o = el("option", null, `${n} favors`);
          o.value = String(n);
          if ((draft.handSizes[s.name] || 3) === n) o.selected = true;
          size.append(o);
        }
        size.addEventListener("change", () => { draft.handSizes[s.name] = Number(size.value); });
        li.append(sel, size);
      }
      list.append(li);
    }
    const side = el("section", "lobby-side", el("h2", null, `Players (${seats.length} of 4)`),
      seats.length ? list : el("p", "muted big", "Nobody yet: scan the code with your phone."));
    if (isHost()) {
      const modes = el("div", "modes");
      for (const [mode, label] of [["tutorial", "Tutorial (3 favors each)"], ["characters", "Character cards"]]) {
        const b = button(label, () => { draft.mode = mode; render(); }, "btn mode" + (draft.mode === mode ? " selected" : ""));
        b.dataset.mode = mode;
        modes.append(b);
      }
      const start = button("Start the game", () => {
        const body = { mode: draft.mode };
        if (draft.mode === "characters") {
          body.characters = {};
          body.hand_sizes = {};
          for (const s of seats) {
            if (draft.characters[s.name]) body.characters[s.name] = draft.characters[s.name];
            body.hand_sizes[s.name] = draft.handSizes[s.name] || 3;
          }
        }
        host("/api/host/start", body);
      }, "btn primary start act");
      start.id = "start";
      start.disabled = busy || seats.length < 2 || seats.length > 4;
      side.append(el("h3", null, "Game"), modes, start);
      if (seats.length < 2) side.append(el("p", "muted", "A game needs 2 to 4 players."));
      if (hostError) side.append(el("p", "error", hostError));
    } else {
      side.append(el("p", "muted", "Waiting for the host to start the game."));
    }
    return [el("div", "lobby", join, side)];
  }
  function characterNames() {
    const c = view.lobby && view.lobby.available_characters;
    if (Array.isArray(c) && c.length) return c.map(x => (typeof x === "string" ? x : x.name));
    return ["Nancy Hughs", "Bobby Washington", "Eddie Vandenburg", "Franky", "Roberts", "Silvio", "Timmy Green", "Don Ciaperinelli", "Liza Bruno"];
  }

  // --- the game -------------------------------------------------------------------------------
  function renderGame() {
    const colors = GD.seatColors(view);
    const out = [];
    if (view.finished) out.push(GD.winnersBanner(view, colors));
    const status = el("section", "status-line");
    if (!view.finished) {
      if (view.phase === "bidding") {
        const waiting = view.waiting_for || [];
        status.append(el("p", "lead", waiting.length ? "Roll and bid on your phones. Waiting for " + waiting.join(", ") + "." : "Revealing…"));
      } else if (view.phase === "resolving") {
        status.append(el("p", "lead", GD.decisionText(view)));
      }
      out.push(status);
    }
    const board = el("div", "board",
      el("section", "board-tokens", GD.tokenBoard(view, colors)),
      el("section", "board-players", GD.stashTable(view, colors, { rolls: true })),
    );
    const cam = el("section", "camera-slot");
    cam.append(camera);
    if (cameraVersion !== view.version) {
      cameraVersion = view.version;
      camera.src = "/camera/frame.jpg?v=" + encodeURIComponent(view.version);
    }
    const seen = view.camera;
    if (seen && view.phase === "bidding") {
      if (seen.error) cam.append(el("p", "camera-problems", seen.error + " Players tap their dice on their phones."));
      else if (seen.problems && seen.problems.length) {
        const list = el("ul", "camera-problems");
        for (const p of seen.problems) list.append(el("li", null, p));
        cam.append(list);
      }
      if (!seen.error && GD.auth.host) {
        const readNow = GD.button("Read now", async () => {
          try { await GD.api("POST", "/api/camera/read-now", {}); } catch (e) { GD.setBanner(document.getElementById("banner"), e.message); }
        }, "btn");
        readNow.id = "read-now";
        cam.append(readNow);
      }
    }
    board.append(cam);
    out.push(board);
    const r = view.reveal || view.last_round;
    if (r) out.push(GD.revealPanel(r, colors, {
      title: view.reveal ? `Round ${r.round}: the bids` : view.finished ? `Final round (${r.round})` : `Last round (${r.round})`,
      instructionsTitle: view.reveal ? "Move on the table" : "What changed on the table",
    }));
    return out;
  }

  // --- host controls --------------------------------------------------------------------------
  function select(options, value, onChange, label) {
    const s = el("select");
    s.setAttribute("aria-label", label);
    for (const [val, text] of options) {
      const o = el("option", null, text);
      o.value = val;
      if (String(val) === String(value)) o.selected = true;
      s.append(o);
    }
    s.addEventListener("change", () => onChange(s.value));
    return s;
  }
  function renderHost() {
    if (!isHost() || !inGame(view)) { hostBox.hidden = true; hostBox.replaceChildren(); return; }
    hostBox.hidden = false;
    const names = view.players.map(p => p.name);
    if (!names.includes(draft.give.player)) draft.give.player = names[0];
    if (!names.includes(draft.take.player)) draft.take.player = names[0];
    const places = [["box", "the box"], ["speakeasy", "Speakeasy"], ["streets", "Streets"], ["investigator", "Investigator"], ...names.map(n => ["stash:" + n, n + "'s stash"])];
    const colorOpts = COLORS.map(c => [c, c]);
    const d = el("details", "host-panel");
    if (hostOpen) d.open = true;
    d.addEventListener("toggle", () => { hostOpen = d.open; });
    d.append(el("summary", null, "Host controls"));
    const top = el("div", "host-row");
    const pause = button(view.paused ? "Resume" : "Pause", () => host("/api/host/pause", { paused: !view.paused }), "btn act");
    pause.id = "pause";
    const undo = button("Undo last adjustment", () => host("/api/host/undo", {}), "btn act");
    undo.id = "undo";
    if (view.can_undo === false) undo.disabled = true;
    top.append(pause, undo);
    if (view.finished) top.append(button("New game, same players", () => host("/api/host/new-lobby", {}), "btn primary act"));
    else top.append(button("End the game", () => host("/api/host/end", {}, "End the game now, with no winner?"), "btn danger act"));
    d.append(top);
    if (hostError) d.append(el("p", "error", hostError));
    if (!view.finished) {
      const m = draft.move;
      d.append(el("div", "host-row", el("span", "label", "Move a"),
        select(colorOpts, m.color, v => { m.color = v; }, "Die color"), el("span", "label", "die from"),
        select(places, m.source, v => { m.source = v; }, "From"), el("span", "label", "to"),
        select(places, m.target, v => { m.target = v; }, "To"),
        button("Move", () => host("/api/host/adjust", { action: { kind: "move_die", color: m.color, source: m.source, target: m.target } }), "btn act")));
      const g = draft.give;
      const values = [0, 1, 2, 3, 4].map(v => [String(v), "+" + v]);
      const giveRow = el("div", "host-row", el("span", "label", "Give"),
        select(names.map(n => [n, n]), g.player, v => { g.player = v; }, "Player"), el("span", "label", "a favor from"),
        select([["deck", "the deck"], ["special", "the +4 stack"], ["discard", "the discard pile"]], g.source, v => { g.source = v; render(); }, "Source"));
      if (g.source === "discard") giveRow.append(select(values, g.value, v => { g.value = v; }, "Value"));
      giveRow.append(button("Give", () => host("/api/host/adjust", { action: { kind: "give_favor", player: g.player, source: g.source, value: g.source === "discard" ? Number(g.value) : null } }), "btn act"));
      d.append(giveRow);
      const t = draft.take;
      d.append(el("div", "host-row", el("span", "label", "Take a"),
        select(values, t.value, v => { t.value = v; }, "Value"), el("span", "label", "from"),
        select(names.map(n => [n, n]), t.player, v => { t.player = v; }, "Player"), el("span", "label", "to"),
        select([["discard", "the discard pile"], ["special", "the +4 stack"], ["deck", "the deck top"]], t.target, v => { t.target = v; }, "Target"),
        button("Take", () => host("/api/host/adjust", { action: { kind: "take_favor", player: t.player, value: Number(t.value), target: t.target } }), "btn act")));
    }
    // Hand the host controls to a phone: it scans this code (it holds the host token).
    const handoff = el("details", "handoff", el("summary", null, "Host from a phone"));
    if (handoffOpen) handoff.open = true;
    handoff.addEventListener("toggle", () => { handoffOpen = handoff.open; });
    const hq = el("img", "host-qr");
    hq.alt = "QR code that makes a phone the host";
    hq.src = "/host-qr.svg?host=" + encodeURIComponent(GD.auth.host || "");
    handoff.append(hq, el("p", "muted small", "Scan to open these controls on a phone. Players play at "), el("a", null, "/play"));
    handoff.lastChild.href = "/play";
    d.append(handoff);
    const log = view.host_log || [];
    if (log.length) {
      const ol = el("ol", "host-log");
      for (const entry of log.slice(-12)) ol.append(el("li", entry && entry.undone ? "undone" : null, logText(entry)));
      d.append(el("h3", null, "Host log"), ol);
    }
    hostBox.replaceChildren(d);
  }
  let hostOpen = false;
  let handoffOpen = false;
  function logText(entry) {
    if (typeof entry === "string") return entry;
    if (entry && typeof entry === "object") return entry.text || entry.message || entry.description || JSON.stringify(entry);
    return String(entry);
  }

  function render() {
    if (!view) return;
    app.dataset.step = inGame(view) ? (view.finished ? "finished" : view.phase) : "lobby";
    roundBox.textContent = inGame(view) && !view.finished ? `Round ${view.round}` : "";
    GD.setBanner(banner, view.paused ? "Paused by the host" : "");
    const parts = inGame(view) ? renderGame() : renderLobby();
    app.replaceChildren(...parts);
    renderHost();
    if (busy) for (const b of document.querySelectorAll("button.act")) b.disabled = true;
  }

  GD.live(v => accept(v), GD.connBadge(document.getElementById("conn")), GD.auth.host ? {} : { viewer: "table" });
})();
