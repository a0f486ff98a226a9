/* The camera set-up page (host only): live view with draggable seat zones, a verdict on light
   and focus, and teaching the table's own dice from frames whose readings the host confirms. */
"use strict";

(() => {
  const { el, api, COLORS, SYMBOLS } = GD;
  const HOST_KEY = "gd-host-token";
  const params = new URLSearchParams(location.search);
  if (params.get("host")) GD.store.set(HOST_KEY, params.get("host"));
  const given = document.querySelector('meta[name="gd-host"]');
  if (given && given.content) GD.store.set(HOST_KEY, given.content);
  GD.auth.host = GD.store.get(HOST_KEY);

  const img = document.getElementById("live");
  const canvas = document.getElementById("overlay");
  const ctx = canvas.getContext("2d");
  let zones = null, saved = null, drag = null, reading = null, names = [];

  // The live view is one long-lived image stream that the server ends every two minutes.
  img.addEventListener("error", () => setTimeout(() => { img.src = "/camera/live.mjpg?" + Date.now(); }, 2000));
  img.addEventListener("load", draw);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") img.src = "/camera/live.mjpg?" + Date.now();
  });

  function scale() { return zones ? canvas.width / zones.width : 1; }
  function draw() {
    const rect = img.getBoundingClientRect();
    canvas.width = rect.width; canvas.height = rect.height;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (!zones) return;
    const k = scale();
    zones.polygons.forEach((poly, seat) => {
      ctx.strokeStyle = "#7CFC9A"; ctx.lineWidth = 3;
      ctx.beginPath();
      poly.forEach(([x, y], i) => (i ? ctx.lineTo(x * k, y * k) : ctx.moveTo(x * k, y * k)));
      ctx.closePath(); ctx.stroke();
      const cx = poly.reduce((s, p) => s + p[0], 0) / poly.length * k;
      const cy = poly.reduce((s, p) => s + p[1], 0) / poly.length * k;
      ctx.fillStyle = "#7CFC9A"; ctx.font = "bold 22px sans-serif"; ctx.fillText(names[seat] || "Seat " + (seat + 1), cx - 30, cy);
      for (const [x, y] of poly) { ctx.beginPath(); ctx.arc(x * k, y * k, 9, 0, 7); ctx.fill(); }
    });
    if (reading) {
      reading.dice.forEach((d, i) => {
        ctx.strokeStyle = d.confidence < 0.5 ? "#FFB020" : "#FFFFFF"; ctx.lineWidth = 2;
        const s = d.size * k;
        ctx.strokeRect(d.center[0] * k - s / 2, d.center[1] * k - s / 2, s, s);
        ctx.fillStyle = "#FFFFFF"; ctx.font = "bold 16px sans-serif";
        ctx.fillText(String(i + 1), d.center[0] * k - s / 2, d.center[1] * k - s / 2 - 4);
      });
    }
  }
  window.addEventListener("resize", draw);

  function pointer(ev) {
    const r = canvas.getBoundingClientRect();
    return [(ev.clientX - r.left) / scale(), (ev.clientY - r.top) / scale()];
  }
  canvas.addEventListener("pointerdown", ev => {
    if (!zones) return;
    const [x, y] = pointer(ev);
    let best = null, bestD = 30 / scale();
    zones.polygons.forEach((poly, s) => poly.forEach(([px, py], i) => {
      const d = Math.hypot(px - x, py - y);
      if (d < bestD) { best = [s, i]; bestD = d; }
    }));
    if (best) { drag = best; canvas.setPointerCapture(ev.pointerId); }
    else if (reading) addDie(x, y);  // a die the reader missed: tap it to add it
  });
  canvas.addEventListener("pointermove", ev => {
    if (!drag) return;
    const [x, y] = pointer(ev);
    zones.polygons[drag[0]][drag[1]] = [Math.max(0, Math.min(zones.width, x)), Math.max(0, Math.min(zones.height, y))];
    draw();
  });
  canvas.addEventListener("pointerup", () => { drag = null; });

  async function loadZones() {
    try {
      const data = await api("GET", "/api/camera/zones");
      zones = { width: data.width, height: data.height, polygons: data.seats.map(s => s.polygon) };
      saved = JSON.stringify(zones);
      try {
        const v = await api("GET", "/api/state");
        names = (v.players || []).map(p => p.name);
      } catch (e) { names = []; }
      draw();
    } catch (e) { document.getElementById("zones-msg").textContent = e.message; }
  }
  document.getElementById("reset-zones").addEventListener("click", () => { zones = JSON.parse(saved); draw(); });
  document.getElementById("save-zones").addEventListener("click", async () => {
    const msg = document.getElementById("zones-msg");
    const data = { width: zones.width, height: zones.height, seats: zones.polygons.map((polygon, seat) => ({ seat, polygon })) };
    try { await api("POST", "/api/camera/zones", data); saved = JSON.stringify(zones); msg.textContent = "Zones saved."; }
    catch (e) { msg.textContent = e.message; }
  });

  document.getElementById("check").addEventListener("click", async () => {
    const list = document.getElementById("verdict");
    list.replaceChildren(el("li", "muted", "Checking…"));
    try {
      const res = await api("GET", "/api/camera/check");
      reading = res; draw();
      list.replaceChildren(...(res.problems.length ? res.problems.map(p => el("li", "problem", p))
        : [el("li", "ok", `All good: ${res.dice.length} dice seen clearly.`)]));
    } catch (e) { list.replaceChildren(el("li", "problem", e.message)); }
  });

  function select(options, value, onchange) {
    const s = el("select", "big-select");
    for (const o of options) {
      const opt = el("option", null, o === null ? "cocked (no face on top)" : o);
      opt.value = o === null ? "" : o;
      if (o === value) opt.selected = true;
      s.append(opt);
    }
    s.addEventListener("change", () => onchange(s.value || null));
    return s;
  }
  // The dice as read, for the host to put right: every color and symbol, a die that is not one
  // taken out, a die the reader missed tapped on the picture. Teaching learns what this list says.
  function showDice() {
    const list = document.getElementById("dice");
    list.replaceChildren(...reading.dice.map((d, i) => {
      const remove = el("button", "remove-die", "✕ not a die");
      remove.type = "button";
      remove.addEventListener("click", () => { reading.dice.splice(i, 1); showDice(); });
      return el("li", "teach-die", el("strong", null, String(i + 1)),
        select(COLORS, d.color, v => { d.color = v; }),
        select([...SYMBOLS, null], d.symbol, v => { d.symbol = v; }),
        d.confidence < 0.5 ? el("span", "flag", " not sure") : null, remove);
    }));
    document.getElementById("keep").disabled = !reading.dice.length;
    draw();
  }
  function addDie(x, y) {
    const sizes = reading.dice.map(d => d.size).sort((a, b) => a - b);
    const size = sizes.length ? sizes[Math.floor(sizes.length / 2)] : 80;
    reading.dice.push({ color: COLORS[0], symbol: SYMBOLS[0], center: [Math.round(x), Math.round(y)], size, confidence: 1 });
    showDice();
  }
  document.getElementById("read").addEventListener("click", async () => {
    try {
      reading = await api("GET", "/api/camera/check");
      showDice();
    } catch (e) {
      document.getElementById("dice").replaceChildren(el("li", "problem", e.message));
      document.getElementById("keep").disabled = true;
    }
  });
  document.getElementById("keep").addEventListener("click", async () => {
    const msg = document.getElementById("teach-msg");
    const keep = document.getElementById("keep");
    // From the fourth frame on, keeping one teaches the camera: a minute on a Pi. One press.
    keep.disabled = true;
    msg.textContent = "Keeping this frame… (from the fourth on, it teaches the camera: up to a minute)";
    try {
      const res = await api("POST", "/api/camera/teach", {
        frame: reading.frame,
        dice: reading.dice.map(d => ({ color: d.color, symbol: d.symbol, center: d.center })),
      });
      msg.textContent = res.taught ? res.message
        : `Frame ${res.images} kept.` + (res.message ? " " + res.message : ` ${Math.max(0, 4 - res.images)} more to go.`);
    } catch (e) { msg.textContent = e.message; keep.disabled = false; }
  });

  loadZones();
})();
