// Run by tests/chip/test_dispatch.py: rp2040js's stock instruction decoder
// against host/chip/dispatch.mjs's, on two chips side by side.
//   node dispatch_check.mjs GLUE_DIR BOOTROM FLASH STEPS
// 1. Every 16-bit opcode, and every 32-bit one's first half with a second
//    half of each value of the top byte, from the same random states
//    (pointers into SRAM; then anything, and 32 random second halves):
//    the same registers, flags, PC, cycles, wait and memory writes after it.
// 2. A Pico's flash (FLASH: the stock MicroPython image, and okgin on it)
//    from power-on for STEPS instructions in lockstep, USB plugged in:
//    after each one the same PC, registers, flags, cycles and writes.
// Prints one JSON line: {"opcodes": n, "steps": n, "waits": n, "pcs": n}
// or {"differs": "..."} and exits 1.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [glueDir, bootromPath, flashPath, stepsArg] = process.argv.slice(2);
const require = createRequire(path.join(glueDir, 'glue.mjs'));
const esm = path.join(path.dirname(require.resolve('rp2040js')), '..', 'esm');
const { RP2040, USBCDC } = await import(pathToFileURL(path.join(esm, 'index.js')).href);
const { fastExecute } = await import(pathToFileURL(path.join(glueDir, 'dispatch.mjs')).href);
const fast = await fastExecute(pathToFileURL(path.join(glueDir, 'glue.mjs')).href);

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
console.warn = () => {};     // rp2040js's SIO warns of the random addresses by itself
const bootrom = new Uint32Array(fs.readFileSync(bootromPath).buffer.slice(0, 16384));
const flash = fs.readFileSync(flashPath);

function chip(decoder, usb = true) {
  const mcu = new RP2040();
  mcu.logger = quiet;
  mcu.loadBootrom(bootrom);
  mcu.flash.set(flash);
  if (decoder) mcu.core.executeInstruction = decoder;
  // core 1 is absent, as in glue.mjs: its FIFO is never valid and always has room
  const sioRead = mcu.sio.readUint32.bind(mcu.sio);
  mcu.sio.readUint32 = (o) => (o === 0x050 || o === 0x058 ? 0xffffffff : sioRead(o));
  if (usb) new USBCDC(mcu.usbCtrl);   // the host enumerates the port
  const writes = [];
  for (const w of ['writeUint32', 'writeUint16', 'writeUint8']) {
    const orig = mcu[w].bind(mcu);
    mcu[w] = (a, v) => {
      writes.push(w[9] + (a >>> 0).toString(16) + '=' + (v >>> 0).toString(16));
      orig(a, v);
    };
  }
  return { mcu, core: mcu.core, writes };
}

function state(c) {
  const k = c.core;
  return [...k.registers].join(',') + ` SP=${k.SP} bSP=${k.bankedSP} N${+k.N}Z${+k.Z}C${+k.C}V${+k.V}` +
    ` PM${+k.PM} IPSR${k.IPSR} w${+k.waiting} pend${k.pendingInterrupts}`;
}

function same(a, b) {
  const ra = a.registers, rb = b.registers;
  for (let r = 0; r < 16; r++) if (ra[r] !== rb[r]) return false;
  return a.N === b.N && a.Z === b.Z && a.C === b.C && a.V === b.V && a.SP === b.SP;
}

function fail(what) {
  console.log(JSON.stringify({ differs: what }));
  process.exit(1);
}

// --- 1. opcode by opcode ------------------------------------------------------
let seed = 12345;
function rand32() {
  // xorshift32: the same states on every run
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed;
}
const stock = chip(null, false), ours = chip(fast, false);
const CODE = 0x20010000;
let opcodes = 0;

function one(op, op2, s) {
  const regs = [];
  for (let r = 0; r < 13; r++) regs.push(s === 0 && r < 8 ? 0x20020000 + (rand32() & 0xfffc) : rand32());
  const flags = rand32();
  for (const c of [stock, ours]) {
    const k = c.core;
    c.mcu.sramView.setUint16(CODE - 0x20000000, op, true);
    c.mcu.sramView.setUint16(CODE + 2 - 0x20000000, op2, true);
    for (let r = 0; r < 13; r++) k.registers[r] = regs[r];
    k.SP = 0x20030000;
    k.LR = 0xfffffff9;
    k.PC = CODE;
    k.N = !!(flags & 1); k.Z = !!(flags & 2); k.C = !!(flags & 4); k.V = !!(flags & 8);
    k.waiting = false;
    c.writes.length = 0;
  }
  const a = stock.core.executeInstruction();
  const b = ours.core.executeInstruction();
  const sa = state(stock), sb = state(ours);
  if (a !== b || sa !== sb || stock.writes.join() !== ours.writes.join()) {
    fail(`opcode ${op.toString(16)} ${op2.toString(16)}: stock ${a} cycles ${sa} [${stock.writes}]` +
         ` / ours ${b} cycles ${sb} [${ours.writes}]`);
  }
  opcodes++;
}

for (let op = 0; op < 0x10000; op++) {
  const wide = op >> 11 === 0b11101 || op >> 12 === 0b1111;
  for (let s = 0; s < 2; s++) {
    if (!wide) one(op, 0, s);
    else if (s === 0) for (let hi = 0; hi < 256; hi++) one(op, (hi << 8) | (rand32() & 0xff), s);
    else for (let k = 0; k < 32; k++) one(op, rand32() & 0xffff, s);
  }
}

// --- 2. the stock image from power-on, in lockstep ----------------------------------
const A = chip(null), B = chip(fast);
for (const c of [A, B]) c.core.PC = 0x10000000;   // straight into boot2, as glue.mjs starts it
const steps = Number(stepsArg);
let waits = 0, i = 0;
const pcs = new Set();
for (; i < steps; i++) {
  if (A.core.waiting !== B.core.waiting) fail(`step ${i}: one core waits`);
  if (A.core.waiting) {
    // both asleep: to the next alarm (a timer), as glue.mjs lets time pass
    const na = A.mcu.clock.nextAlarm, nb = B.mcu.clock.nextAlarm;
    if (!na !== !nb || (na && na.nanos !== nb.nanos)) fail(`step ${i}: the next alarms differ`);
    if (!na) break;               // only the host could wake it (USB): as far as it goes alone
    waits++;
    const dt = Math.max(0, na.nanos - A.mcu.clock.nanos);
    A.mcu.clock.tick(dt);
    B.mcu.clock.tick(dt);
    continue;
  }
  const a = A.core.executeInstruction();
  const b = B.core.executeInstruction();
  if (a !== b || !same(A.core, B.core) || A.writes.length !== B.writes.length ||
      A.writes.some((w, j) => w !== B.writes[j]) || ((i & 0xfff) === 0 && state(A) !== state(B))) {
    fail(`step ${i}: stock ${a} cycles ${state(A)} [${A.writes}] / ours ${b} cycles ${state(B)} [${B.writes}]`);
  }
  A.writes.length = 0;
  B.writes.length = 0;
  pcs.add(A.core.PC >>> 8);
  const ns = (a * 1e9) / A.mcu.clkSys;
  A.mcu.clock.tick(ns);
  B.mcu.clock.tick(ns);
}
console.log(JSON.stringify({ rebuilt: fast !== A.core.constructor.prototype.executeInstruction, opcodes, steps: i, waits, pcs: pcs.size, clock: A.mcu.clock.nanos, pc: A.core.PC.toString(16) }));
