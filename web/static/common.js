/* Shared by the table screen and the phone pad: DOM helpers, the API, the live stream, and the
   renderers of what everyone sees (tokens, stashes, a revealed round). Data only ever reaches the
   page through textContent and attributes, never through innerHTML. */
"use strict";

const GD = (() => {
  const COLORS = ["white", "red", "blue"];
  const SYMBOLS = ["finger", "gun", "cocktail", "gavel"];
  const TOKENS = ["lawyer", "speakeasy", "streets", "investigator"];
  const TOKEN_SYMBOL = { lawyer: "gavel", speakeasy: "cocktail", streets: "gun", investigator: "finger" };
  const TOKEN_TITLE = { lawyer: "Lawyer", speakeasy: "Speakeasy", streets: "Streets", investigator: "Investigator" };
  const SYMBOL_WORD = { finger: "Finger", gun: "Gun", cocktail: "Cocktail", gavel: "Gavel" };
  const SYMBOL_TOKEN = { gavel: "lawyer", cocktail: "speakeasy", gun: "streets", finger: "investigator" };

  // --- DOM ----------------------------------------------------------------------------------
  function el(tag, cls, ...kids) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return node;
  }
  function attrs(node, map) {
    for (const [k, v] of Object.entries(map)) {
      if (v === false || v === null || v === undefined) continue;
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    return node;
  }
  function button(label, onclick, cls = "btn") {
    const b = el("button", cls, label);
    b.type = "button";
    if (onclick) b.addEventListener("click", onclick);
    return b;
  }
  function icon(symbol, cls = "sym") {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#sym-" + symbol);
    svg.append(use);
    return svg;
  }
  /** A die: its color, and the symbol on top when known. */
  function die(color, symbol, cls = "") {
    const d = el("span", `die die-${color} ${cls}`.trim());
    d.title = symbol ? `${color} ${symbol}` : `${color} die`;
    if (symbol) d.append(icon(symbol));
    d.dataset.color = color;
    if (symbol) d.dataset.symbol = symbol;
    return d;
  }
  /** Pips for a {white, red, blue} count; "none" when empty. */
  function dicePips(counts, emptyText = "no dice") {
    const box = el("span", "pips");
    let total = 0;
    for (const c of COLORS) {
      const n = (counts && counts[c]) || 0;
      for (let i = 0; i < n; i++) { box.append(die(c, null, "pip")); total++; }
    }
    if (!total) box.append(el("span", "muted", emptyText));
    return box;
  }
  function countDice(counts) { return COLORS.reduce((n, c) => n + ((counts && counts[c]) || 0), 0); }
  function diceWords(counts) {
    const parts = COLORS.filter(c => counts[c]).map(c => `${counts[c]} ${c}`);
    return parts.length ? parts.join(", ") : "none";
  }
  function symbolLabel(symbol) {
    return el("span", "symlabel", icon(symbol), SYMBOL_WORD[symbol] || symbol);
  }
  function favorCard(value, cls = "") {
    const c = el("span", `favor ${cls}`.trim(), value === null || value === undefined ? "–" : "+" + value);
    if (value === 4) c.classList.add("favor-special");
    return c;
  }

  // --- identity & tokens --------------------------------------------------------------------
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
    del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  };
  function uuid() {
    if (window.crypto && crypto.randomUUID && window.isSecureContext) return crypto.randomUUID();
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map(x => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // --- API ----------------------------------------------------------------------------------
  const auth = { seat: null, host: null };
  function headers() {
    const h = { "Content-Type": "application/json" };
    if (auth.seat) h["X-Seat-Token"] = auth.seat;
    if (auth.host) h["X-Host-Token"] = auth.host;
    return h;
  }
  class ApiError extends Error {
    constructor(message, status) { super(message); this.status = status; }
  }
  async function api(method, path, body) {
    let res;
    try {
      res = await fetch(path, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
    } catch (e) {
      throw new ApiError("No connection to the table. Check the Wi-Fi and try again.", 0);
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) throw new ApiError((data && data.error) || `The table refused (${res.status}).`, res.status);
    return data || {};
  }

  // --- live stream --------------------------------------------------------------------------
  /** One EventSource per page; reopened when the page becomes visible again and by a watchdog. */
  function live(onView, onState, extraParams = {}) {
    let source = null;
    let last = Date.now();
    const WATCHDOG_MS = 40000;
    function url() {
      const q = new URLSearchParams();
      if (auth.seat) q.set("token", auth.seat);
      if (auth.host) q.set("host", auth.host);
      for (const [k, v] of Object.entries(extraParams)) q.set(k, v);
      const s = q.toString();
      return "/api/stream" + (s ? "?" + s : "");
    }
    function open() {
      if (source) source.close();
      last = Date.now();
      onState("connecting");
      source = new EventSource(url());
      source.addEventListener("open", () => { last = Date.now(); onState("live"); });
      source.addEventListener("view", ev => {
        last = Date.now();
        onState("live");
        let v;
        try { v = JSON.parse(ev.data); } catch (e) { return; }
        onView(v, "stream");
      });
      source.addEventListener("ping", () => { last = Date.now(); });
      source.addEventListener("message", () => { last = Date.now(); });
      source.addEventListener("error", () => { onState(source.readyState === EventSource.CLOSED ? "offline" : "connecting"); });
    }
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") open(); });
    window.addEventListener("online", open);
    setInterval(() => { if (Date.now() - last > WATCHDOG_MS) open(); }, 5000);
    open();
    return { reopen: open };
  }
  function connBadge(node) {
    return state => {
      node.dataset.state = state;
      node.textContent = state === "live" ? "live" : state === "offline" ? "offline" : "connecting…";
    };
  }

  // --- shared renderers ---------------------------------------------------------------------
  function seatColors(v) {
    const map = {};
    for (const s of (v.lobby && v.lobby.seats) || []) map[s.name] = s.color;
    return map;
  }
  function nameTag(name, colors, cls = "") {
    const t = el("span", `name ${cls}`.trim(), name);
    const c = colors && colors[name];
    if (c) { t.classList.add("seat-" + c); t.dataset.seatColor = c; }
    return t;
  }

  function tokenBoard(v, colors) {
    const board = el("div", "tokens");
    for (const token of TOKENS) {
      const t = v.tokens[token];
      const card = el("div", `token token-${token}`);
      card.dataset.token = token;
      card.append(el("div", "token-head", icon(TOKEN_SYMBOL[token], "sym big"), el("span", "token-title", TOKEN_TITLE[token])));
      const who = token === "investigator" ? t.holder : t.controller;
      card.append(el("div", "token-who", who ? [token === "investigator" ? "held by " : "", nameTag(who, colors)] : el("span", "muted", token === "investigator" ? "nobody holds it" : "nobody")));
      if (t.dice) card.append(el("div", "token-dice", dicePips(t.dice, "no dice")));
      board.append(card);
    }
    return board;
  }

  function stashTable(v, colors, opts = {}) {
    const box = el("div", "players");
    const meName = v.you && v.you.name;
    for (const p of v.players) {
      const row = el("div", "player");
      row.dataset.player = p.name;
      if (p.name === meName) row.classList.add("me");
      const status = el("span", "status");
      if (v.finished) {
        if ((v.winners || []).includes(p.name)) status.append(el("span", "tag win", "WINNER"));
      } else if (v.phase === "bidding") {
        if (p.submitted) status.append(el("span", "tag ok", "✓ sealed"));
        else if (p.rolled) status.append(el("span", "tag wait", "bidding…"));
        else status.append(el("span", "tag wait", "rolling…"));
      } else if (p.waiting) status.append(el("span", "tag wait", "deciding…"));
      row.append(
        el("div", "player-head", nameTag(p.name, colors), p.character ? el("span", "muted small", p.character) : null, status),
        el("div", "player-body",
          dicePips(p.stash, "no dice left"),
          el("span", "hand", el("span", "cardback"), `× ${p.hand_size}`)),
      );
      if (opts.rolls && p.roll && v.phase === "bidding") {
        const r = el("div", "roll");
        for (const c of COLORS) for (const s of p.roll[c] || []) r.append(die(c, s, "small"));
        row.append(r);
      }
      box.append(row);
    }
    return box;
  }

  function tokenWinText(token, t) {
    const title = TOKEN_TITLE[token];
    if (!t.scores.length) return `No bids on the ${title}: not influenced.`;
    const top = Math.max(...t.scores.map(s => s.score));
    if (t.tied && t.tied.length) {
      const names = t.tied.join(" and ");
      if (t.won_on_streets_tie_break && t.winner)
        return `Tie at ${top} between ${names}: ${t.winner} controls the Streets, so ${t.winner} wins the ${title}.`;
      return `Tie at ${top} between ${names}: nobody wins the ${title}.`;
    }
    return t.winner ? `${t.winner} wins the ${title} with ${top}.` : `Nobody wins the ${title}.`;
  }

  /** A revealed round: for each token every bid, its favor and its score, and who won it. */
  function revealPanel(r, colors, opts = {}) {
    const box = el("section", "reveal");
    box.append(el("h2", null, opts.title || `Round ${r.round} revealed`));
    const grid = el("div", "reveal-grid");
    const unbid = [];
    for (const token of TOKENS) {
      const t = r.tokens[token];
      if (opts.compact && !t.scores.length) { unbid.push(TOKEN_TITLE[token]); continue; }
      const sym = TOKEN_SYMBOL[token];
      const card = el("div", "reveal-token");
      card.dataset.token = token;
      card.append(el("div", "token-head", icon(sym, "sym big"), el("span", "token-title", TOKEN_TITLE[token])));
      const list = el("ul", "bids");
      for (const s of t.scores) {
        const bid = ((r.bids[s.player]) || []).find(b => b.symbol === sym) || {};
        const roll = (r.rolls && r.rolls[s.player]) || {};
        const dice = COLORS.reduce((n, c) => n + (roll[c] || []).filter(x => x === sym).length, 0);
        const favor = bid.favor || 0;
        const streets = s.score - dice - favor;
        const parts = [`${dice} ${dice === 1 ? "die" : "dice"}`, `favor +${favor}`];
        if (streets > 0) parts.push(`Streets +${streets}`);
        const li = el("li", t.winner === s.player ? "won" : "",
          nameTag(s.player, colors), el("span", "score", String(s.score)), el("span", "parts", parts.join(" · ")));
        list.append(li);
      }
      card.append(list, el("p", "outcome", tokenWinText(token, t)));
      grid.append(card);
    }
    box.append(grid);
    if (unbid.length) box.append(el("p", "nobids", `No bids on the ${unbid.join(", the ")}: not influenced.`));
    if (r.instructions && r.instructions.length && opts.instructions !== false) {
      box.append(instructionsList(r.instructions, opts.instructionsTitle || "On the table"));
    }
    return box;
  }
  function instructionsList(lines, title) {
    const box = el("div", "instructions");
    box.append(el("h3", null, title));
    const ol = el("ol");
    for (const line of lines) ol.append(el("li", null, line));
    box.append(ol);
    return box;
  }
  function decisionText(v) {
    const d = v.decision;
    if (!d) return "";
    switch (d.kind) {
      case "speakeasy": return `${d.player} may exchange dice at the Speakeasy.`;
      case "streets": return `${d.player} may put a die on the Streets.`;
      case "investigator_color": return `${d.player} chooses a color to put on the Investigator.`;
      case "investigator_take": return `${d.player} takes a die off the Investigator.`;
      default: return `Waiting for ${d.player}.`;
    }
  }
  function winnersBanner(v, colors) {
    const box = el("section", "gameover");
    if (v.winners && v.winners.length) {
      box.append(el("h2", null, v.winners.length > 1 ? "Winners" : "Winner"));
      box.append(el("p", "winners", v.winners.map((w, i) => [i ? " & " : "", nameTag(w, colors)])));
      box.append(el("p", "muted", "No evidence left. Clean as a whistle."));
    } else {
      box.append(el("h2", null, "Game over"));
      box.append(el("p", "muted", v.ended_by_host ? "The host ended the game; nobody won." : "Nobody won."));
    }
    return box;
  }

  function setBanner(node, text) {
    node.hidden = !text;
    node.textContent = text || "";
  }

  /** Whether a view shows a game (started, running or finished) rather than the open lobby. */
  function inGame(v) {
    return !!(v && v.phase && v.phase !== "lobby" && v.players && v.players.length && !(v.lobby && v.lobby.open));
  }

  return {
    inGame, COLORS, SYMBOLS, TOKENS, TOKEN_SYMBOL, TOKEN_TITLE, SYMBOL_WORD, SYMBOL_TOKEN,
    el, attrs, button, icon, die, dicePips, countDice, diceWords, symbolLabel, favorCard,
    store, uuid, auth, api, ApiError, live, connBadge,
    seatColors, nameTag, tokenBoard, stashTable, revealPanel, instructionsList, tokenWinText,
    decisionText, winnersBanner, setBanner,
  };
})();
