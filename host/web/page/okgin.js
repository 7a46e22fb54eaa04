// okgin.js: the glue between this page and the okgin firmware, which runs
// unchanged on MicroPython's WebAssembly port. Python does everything a
// table does (rules, screens, buttons, refresh policy, saving); this file
// only moves things across: keys and touches to the buttons' pins, panel
// images to canvases (with the e-ink's refresh flash), saved files to the
// browser's storage, and it calls one turn of the firmware's main loop
// (App.step, through webmain.tick) from the browser's event loop.
import { loadMicroPython } from "./mp/micropython.mjs";

const params = new URLSearchParams(location.search);
// the panels' size: site.json's "panel" (the board the site was built
// with: 400x300 on the 4.2" table, 296x128 on the 2.9"), set by main(), and
// its "scale" (2 on the 4.2": its 200x150 screen is drawn in 2x2 blocks)
let W = 400, H = 300, S = 2;
const STORE = "okgin:";                       // localStorage key prefix
const IDLE_MS = 10;                            // between turns when nothing happens

// For people and tests: errors, timings, and whether the page has settled.
const okgin = window.okgin = {
  ready: false, errors: [], refreshes: [], keyToScreen: [], firstScreen: null, stdout: [],
  busyTurns: [], idleTurnMs: null,
};
window.addEventListener("error", (e) => fail(e.message || String(e)));
window.addEventListener("unhandledrejection", (e) => fail(String(e.reason)));

const statusLine = document.getElementById("status");
function say(text) { statusLine.textContent = text; statusLine.hidden = !text; }
function fail(text) {
  okgin.errors.push(text);
  statusLine.className = "error";
  say(tr("page.error", text));
}

// The page's own words, from the table's catalogue of its language (the
// firmware's lang/<code>.txt, "key = text" lines: docs/architecture.md
// "Languages"); English until the firmware is loaded.
let words = {};
function tr(key, ...args) {
  const text = words[key];
  if (text === undefined) {   // before the catalogue is read: English
    const en = { "page.error": "Something went wrong: {0}", "page.player": "Player {0}" };
    return (en[key] || key).replace(/\{(\d)\}/g, (_, i) => args[i]);
  }
  return text.replace(/\{(\d)\}/g, (_, i) => args[i]);
}
function readWords(FS, code) {
  const out = {};
  const text = FS.readFile(`/flash/lang/${code}.txt`, { encoding: "utf8" });
  for (const line of text.split("\n")) {
    const k = line.indexOf(" = ");
    if (line.startsWith("page.") && k > 0) out[line.slice(0, k)] = line.slice(k + 3).replace(/\r$/, "");
  }
  return out;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs);
  e.append(...children);
  return e;
}

// ------------------------------------------------------------ one panel
// Shows the image the firmware sent to the "ink" (MONO_VLSB bytes, bit set =
// ink), playing the SSD1680's refresh over the time the firmware's display
// stays busy: a full refresh flashes (old inverted, black, white, new
// inverted, new), a partial one greys the pixels that change.
class Panel {
  constructor(canvas, site) {
    this.ctx = canvas.getContext("2d");
    this.site = site;
    this.bytes = new Uint8Array(W * Math.ceil(H / 8));   // a panel never drawn: all paper
    this.shown = this.flat(site.paper);
    this.anim = null;
    this.frame = null;
    this.ctx.putImageData(this.shown, 0, 0);
  }

  flat(rgb) {
    const img = new ImageData(W, H);
    for (let i = 0; i < img.data.length; i += 4) img.data.set([...rgb, 255], i);
    return img;
  }

  decode(bytes, ink, paper) {
    const img = new ImageData(W, H);
    const d = img.data;
    for (let k = 0; k < H / 8; k++) {       // a band of 8 rows (the last may be short)
      const rows = Math.min(8, H - k * 8);
      for (let x = 0; x < W; x++) {
        const b = bytes[k * W + x];
        for (let bit = 0; bit < rows; bit++) {
          d.set((b >> bit) & 1 ? ink : paper, ((k * 8 + bit) * W + x) * 4);
        }
      }
    }
    return img;
  }

  refresh(kind, ms, bytes) {
    const s = this.site, ink = [...s.ink, 255], paper = [...s.paper, 255];
    const now = performance.now();
    const next = this.decode(bytes, ink, paper);
    // what the ink shows, or will once a running refresh ends
    const old = this.shown, oldBytes = this.bytes;
    this.shown = next;
    this.bytes = bytes;
    if (ms <= 0) { this.anim = null; this.draw(next); return; }
    let frames;
    if (kind === "full") {
      const look = {
        "old inverted": () => this.decode(oldBytes.map((v) => v ^ 0xff), ink, paper),
        "ink": () => this.flat(s.ink), "paper": () => this.flat(s.paper),
        "new inverted": () => this.decode(bytes.map((v) => v ^ 0xff), ink, paper),
        "new": () => next,
      };
      let t = now;
      frames = s.full_waveform.map(([share, name]) => [(t += share * ms), look[name]()]);
    } else {
      frames = [[now + s.partial_grey * ms, greyed(old, next, s.mid)], [now + ms, next]];
    }
    this.anim = { frames };
    this.animate(now);
  }

  animate(now) {
    if (!this.anim) return false;
    const frames = this.anim.frames;
    while (frames.length > 1 && frames[0][0] <= now) frames.shift();
    this.draw(frames[0][1]);
    if (frames.length === 1 && frames[0][0] <= now) this.anim = null;
    return true;
  }

  draw(img) {
    if (this.frame === img) return;
    this.frame = img;
    this.ctx.putImageData(img, 0, 0);
    if (okgin.firstScreen === null) okgin.firstScreen = performance.now();
  }
}

function greyed(old, next, mid) {
  const img = new ImageData(new Uint8ClampedArray(next.data), W, H);
  for (let i = 0; i < img.data.length; i += 4) {
    if (old.data[i] !== next.data[i]) img.data.set([...mid, 255], i);
  }
  return img;
}

// ------------------------------------------------------------ the table
class Table {
  constructor(site, web, FS, saved) {
    this.site = site;
    this.web = web;
    this.FS = FS;
    this.saved = saved;
    this.seating = localStorage.getItem(STORE + "seating") || "table";
    this.showComputer = false;
    this.revealed = null;         // pass the device: whose panel is uncovered
    this.leds = [0, 0];
    this.vs = "human";
    this.mode = "menu";           // the firmware's screen: menu, game, showdown, over, error
    this.keys = new Map();        // KeyboardEvent.key -> [player, button]
    site.keys.forEach((map, p) => {
      for (const [button, keys] of Object.entries(map)) {
        for (const k of keys) this.keys.set(k, [p, button]);
      }
    });
    this.held = new Map();        // key -> [player, button] while held
    this.players = [0, 1].map((p) => this.seat(p));
    this.panels = this.players.map((s) => new Panel(s.canvas, site));
    document.getElementById("table").append(...this.players.map((s) => s.section));
    for (const radio of document.querySelectorAll("input[name=seating]")) {
      radio.checked = radio.value === this.seating;
      radio.addEventListener("change", () => this.seatAs(radio.value));
    }
    this.computerButton = document.getElementById("show-computer");
    this.computerButton.addEventListener("click", () => {
      this.showComputer = !this.showComputer;
      this.layout();
    });
    addEventListener("keydown", (e) => this.key(e, true));
    addEventListener("keyup", (e) => this.key(e, false));
    addEventListener("blur", () => this.releaseAll());
    addEventListener("resize", () => this.fit());
    this.layout();
  }

  seat(p) {
    const led = el("span", { className: "led", textContent: "\u25cf", title: "turn light" });
    const canvas = el("canvas", { width: W, height: H });
    canvas.style.aspectRatio = W + " / " + H;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", tr("page.panel", p + 1));
    const cover = el("button", { className: "cover", type: "button", hidden: true });
    cover.addEventListener("click", () => { this.revealed = p; this.layout(); });
    const buttons = el("div", { className: "buttons" });
    const keys = {};   // button name -> its element
    const labels = { left: "\u25c0", right: "\u25b6", ok: "ok", draw: "draw", take: "take", knock: "knock" };
    this.site.buttons.forEach((name, i) => {
      if (i === 3) buttons.append(el("span", { className: "gap" }));
      const b = el("button", { type: "button", title: name },
        labels[name], el("kbd", { textContent: this.site.labels[p][name] }));
      b.dataset.player = p;
      b.dataset.button = name;
      keys[name] = b;
      const up = () => { if (b.classList.contains("down")) this.button(p, name, false); };
      b.addEventListener("pointerdown", (e) => {
        e.preventDefault();
        b.setPointerCapture(e.pointerId);
        this.button(p, name, true);
      });
      b.addEventListener("pointerup", up);
      b.addEventListener("pointercancel", up);
      b.addEventListener("contextmenu", (e) => e.preventDefault());  // a long touch
      buttons.append(b);
    });
    const section = el("section", { className: "player", id: "player" + (p + 1) },
      el("h2", {}, el("span", { className: "who" }, tr("page.player", p + 1)), led),
      el("div", { className: "bezel" }, canvas, cover), buttons);
    return { section, canvas, cover, led, keys };
  }

  // A button of player p goes down or up (a key, a click, a touch): the
  // level of its pin, which the firmware's button driver polls.
  button(p, name, down) {
    if (down) okgin.keyAt = performance.now();
    this.players[p].keys[name].classList.toggle("down", down);
    this.web.button(p, name, down);
  }

  key(e, down) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const hit = this.keys.get(k);
    if (!hit) return;
    e.preventDefault();
    if (down) {
      if (e.repeat || this.held.has(k)) return;
      if (e.shiftKey) {   // Shift+key: one long press
        this.button(hit[0], hit[1], true);
        setTimeout(() => this.button(hit[0], hit[1], false), this.site.long_press_ms + 100);
        return;
      }
      this.held.set(k, hit);
      this.button(hit[0], hit[1], true);
    } else if (this.held.has(k)) {
      this.held.delete(k);
      this.button(hit[0], hit[1], false);
    }
  }

  releaseAll() {
    for (const [k, hit] of this.held) this.button(hit[0], hit[1], false);
    this.held.clear();
  }

  seatAs(seating) {
    this.seating = seating;
    this.revealed = null;
    localStorage.setItem(STORE + "seating", seating);
    this.layout();
  }

  // Who sees what: against the computer its panel is hidden (a toggle
  // shows it); passing the device, during play a panel shows only after its
  // player taps it, and the turn passing covers it again (the menu and the
  // showdown hide nothing).
  layout() {
    const computer = this.vs !== "human";
    this.computerButton.hidden = !computer;
    this.computerButton.textContent = tr(this.showComputer ? "page.hide_computer" : "page.show_computer");
    this.players[1].section.hidden = computer && !this.showComputer;
    const passing = this.seating === "pass" && !computer && this.mode === "game";
    this.players.forEach((s, p) => {
      s.cover.hidden = !passing || this.revealed === p;
      s.cover.textContent = tr(this.leds[p] ? "page.cover_turn" : "page.cover", p + 1);
      s.led.classList.toggle("on", !!this.leds[p]);
    });
    this.fit();
  }

  // Panels side by side when each can be 1.5x or more, else stacked; a
  // whole number of device pixels per pixel of the panel's screen (a panel
  // pixel, or a 2x2 block of them on the 4.2") where that costs at most a
  // quarter of the room (crisp 1-bit text), at most 3x the panel.
  fit() {
    const dpr = window.devicePixelRatio || 1, bezel = 16, gap = 16;
    const room = document.getElementById("table").clientWidth - 16;
    const seats = this.players.filter((s) => !s.section.hidden).length;
    const side = seats > 1 && room >= 2 * (1.5 * W + bezel) + gap;
    let css = Math.min((side ? (room - gap) / 2 : room) - bezel, 3 * W);
    const unit = W / S;                          // the screen's pixels across
    const whole = Math.floor(css * dpr / unit) * unit / dpr;
    if (whole >= 0.75 * css) css = whole;
    for (const s of this.players) s.section.style.width = (css + bezel) + "px";
  }

  update(state) {
    if (state.lang && state.lang !== this.lang) {   // the menu's Language, or the page's switch
      this.lang = state.lang;
      this.speak(state.lang);
    }
    let relayout = state.vs !== this.vs || state.mode !== this.mode;
    if (state.mode !== this.mode && state.mode === "game") this.revealed = null;   // play (again)
    this.vs = state.vs;
    this.mode = state.mode;
    for (const [what, p, ...rest] of state.events) {
      if (what === "refresh") {
        const [kind, ms] = rest;
        this.panels[p].refresh(kind, ms, this.FS.readFile(`/tmp/panel${p}`));
        okgin.refreshes.push([p, kind, ms, performance.now()]);
        if (okgin.keyAt !== undefined) {
          okgin.keyToScreen.push(performance.now() - okgin.keyAt);
          okgin.keyAt = undefined;
        }
      } else if (what === "led") {
        this.leds[p] = rest[0];
        if (rest[0] && this.revealed !== p) this.revealed = null;  // the turn passes
        relayout = true;
      } else if (what === "reset") {
        location.reload();   // the firmware asked for a reset: boot again (the game resumes)
      }
    }
    if (relayout) this.layout();
  }

  // The page's own words in the table's language: the seating, the players'
  // titles and covers, the computer's button, the keys under the table.
  speak(code) {
    words = readWords(this.FS, code);
    const select = document.getElementById("lang");
    if (select) select.value = code;
    document.documentElement.lang = code;
    for (const node of document.querySelectorAll("[data-key]")) node.textContent = tr(node.dataset.key);
    this.players.forEach((s, p) => {
      s.section.querySelector(".who").textContent = tr("page.player", p + 1);
      s.canvas.setAttribute("aria-label", tr("page.panel", p + 1));
    });
    // the keys as the simulator maps them (host/simui/keymaps.py)
    const keys = this.site.labels.map((map) => ["draw", "take", "knock"].map((b) => map[b]).join(" ") +
      " / " + ["left", "ok", "right"].map((b) => map[b]).join(" "));
    document.getElementById("keys").textContent = tr("page.keys", keys[0], keys[1]);
    if (select) select.title = tr("page.language");
    this.layout();
  }

  animate(now) {
    let moving = false;
    for (const panel of this.panels) moving = panel.animate(now) || moving;
    return moving;
  }

  // The firmware's files -> the browser's storage, after every action (the
  // same game record as on the device's flash: a reload resumes it). Looked
  // at after every turn: a save writes a new file and renames it (store.py),
  // so a new node or a new mtime means a new save.
  save() {
    this.seen = this.seen || {};
    for (const name of this.saved) {
      const found = this.FS.analyzePath("/flash/" + name);
      const node = found.exists ? found.object : null;
      const was = this.seen[name];
      if (was && was[0] === node && (!node || was[1] === node.mtime)) continue;
      this.seen[name] = [node, node && node.mtime];
      if (node) localStorage.setItem(STORE + name, this.FS.readFile("/flash/" + name, { encoding: "utf8" }));
      else localStorage.removeItem(STORE + name);
    }
  }
}

// ------------------------------------------------------------ the language
// The page's own switch lists the table's languages, each in its own name.
// On a first visit (no language in the table's settings yet) the table
// follows the browser's language when it speaks it (?lang=xx overrides);
// after that the players' choice, on the page or in the table's menu, is
// kept with the settings.
function chooseLanguage(table, web) {
  const info = JSON.parse(web.languages());
  const select = document.getElementById("lang");
  for (const [code, name] of info.langs) {
    select.append(el("option", { value: code, textContent: name, lang: code }));
  }
  select.value = info.lang;
  select.addEventListener("change", () => {
    table.update(JSON.parse(web.set_lang(select.value)));
    table.save();
  });
  const asked = params.get("lang");
  let want = asked ? [asked] : (info.chosen ? [] : (navigator.languages || [navigator.language]));
  want = want.map((l) => String(l).toLowerCase().split("-")[0]);
  const pick = want.find((l) => info.langs.some(([c]) => c === l));
  if (pick && pick !== info.lang) table.update(JSON.parse(web.set_lang(pick)));
  if (!table.lang) {
    table.lang = info.lang;
    table.speak(info.lang);
  }
}

// ------------------------------------------------------------ start
async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

// the Pico's one file, when the build put it on the site (okgin web --build)
function offerUf2(uf2) {
  if (!uf2) return;
  document.getElementById("uf2-size").textContent = `${Math.round(uf2.bytes / 1024)} KB`;
  document.getElementById("uf2-mp").textContent = `v${uf2.micropython}`;
  document.getElementById("pico").hidden = false;
}

async function main() {
  const site = await (await fetch("site.json")).json();
  if (site.panel) [W, H] = site.panel;
  S = site.scale || 1;
  offerUf2(site.uf2);
  const [mp, files] = await Promise.all([
    loadMicroPython({
      stdout: (line) => { console.log(line); okgin.stdout.push(line); okgin.stdout.splice(0, okgin.stdout.length - 100); },
      stderr: (line) => console.error(line),
    }),
    Promise.all(site.firmware.map(async (f) => [f, await fetchBytes("fw/" + f)])),
  ]);
  // the device's flash in MicroPython's in-memory filesystem, with the saved game
  const FS = mp.FS;
  for (const [path, data] of files) {
    let dir = "/flash";
    for (const part of path.split("/").slice(0, -1)) {
      dir += "/" + part;
      if (!FS.analyzePath(dir).exists) FS.mkdirTree(dir);
    }
    if (!FS.analyzePath("/flash").exists) FS.mkdirTree("/flash");
    FS.writeFile("/flash/" + path, data);
  }
  mp.runPython("import os, sys\nos.chdir('/flash')\nsys.path.insert(0, '/flash')");
  const web = mp.pyimport("webmain");
  const saved = JSON.parse(web.saved_files());   // the game record, the settings
  for (const name of saved) {
    const text = localStorage.getItem(STORE + name);
    if (text !== null) FS.writeFile("/flash/" + name, text);
  }
  const table = new Table(site, web, FS, saved);
  const speed = params.has("speed") ? Number(params.get("speed")) : 1;
  const seed = params.has("seed") ? parseInt(params.get("seed"), 10) : null;
  const random = crypto.getRandomValues(new Uint32Array(1))[0] & 0x3fffffff;
  table.update(JSON.parse(web.boot(site.full_ms, site.partial_ms, speed, seed, random)));
  chooseLanguage(table, web);
  table.save();
  say("");
  okgin.settled = () => {
    const settled = !table.panels.some((p) => p.anim) && web.settled();
    table.save();   // settled() may have handled a press
    return settled;
  };
  okgin.python = (code) => mp.runPython(code);   // for benches: okgin bench web
  okgin.ready = true;

  // the firmware's main loop, one turn at a time
  const turn = () => {
    const t = performance.now();
    const state = JSON.parse(web.tick());
    table.update(state);
    table.save();
    const ms = performance.now() - t;   // for okgin bench web
    if (state.busy) okgin.busyTurns.push(ms); else okgin.idleTurnMs = ms;
    okgin.busyTurns.splice(0, okgin.busyTurns.length - 2000);
    setTimeout(turn, state.busy ? 0 : IDLE_MS);
  };
  turn();
  const frame = (now) => { table.animate(now); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);

  if ("serviceWorker" in navigator) {   // offline once loaded (not on file: or plain http hosts)
    navigator.serviceWorker.register("sw.js").then(
      (reg) => { okgin.offline = reg; },
      (e) => console.warn("okgin: no offline copy:", e));
  }
}

main().catch((e) => fail(e && e.stack ? e.stack : String(e)));
