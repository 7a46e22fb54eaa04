// The Node half of the emulated Pico (docs/emulated-pico.md).
//
// rp2040js (Wokwi's RP2040 emulator, pinned in package.json) runs the stock
// MicroPython rp2 image here; everything around the chip (the USB host and
// its pty, the panels, the buttons, the pacing of time) is Python's, in
// host/chip/chipboard.py. This file only does what has to happen inside the
// emulator, plus what rp2040js 1.4.1 leaves to whoever embeds it:
//   - flash erase/program: the bootrom's flash_range_erase/_program are
//     replaced by our own (NOR semantics, datasheet timings), written
//     through to the flash file so a kill keeps what was programmed;
//   - USB CDC: a read from the host with nothing to send is held (a NAK),
//     not answered with an empty packet every 10 us; and the host's
//     start-of-frame every 1 ms while the firmware listens for it
//     (MicroPython waits 16 of them after the port opens before it sends
//     what it has buffered);
//   - WFI: the core sleeps until its next timer alarm; Python decides how
//     much emulated time passes (a jump, or wall-clock time);
//   - machine.reset() (the watchdog): the chip is rebuilt, flash kept;
//   - input levels (pulls, buttons, BUSY) come from Python's model of the
//     board (host/vboard/pins.py), so an unpressed button reads 1;
//   - core 1 is absent: its FIFO reads "empty, room to write";
//   - speed: rp2040js's instruction decoder reached through a table of
//     small handlers on the opcode (dispatch.mjs), and 32-bit stores to
//     SRAM straight in;
//   - power (docs/power.md): instructions take 1/clk_sys each (rp2040js
//     follows the PLL and CLOCKS registers, so machine.freq() changes the
//     pace); emulated time is counted per power state (running, WFI/WFE
//     with clocks on, deep sleep = SLEEPDEEP set, as machine.lightsleep
//     does, DORMANT = the XOSC stopped) and clock; DORMANT is ours to
//     model: the core stops until a GPIO the firmware enabled for
//     dormant wake sees its edge or level; the ADC's inputs (VSYS/3 on
//     GP29) come from Python.
//
// Link: the fd named by the third argument is a socket to Python (the
// fourth: the board's time at power-on, ns). We send one JSON line (a
// report) and block until Python answers with one (a reply): nothing else
// runs in Node, so the chip never moves while Python thinks.
// Reports {why, t, next, q, r, ev}:
//   why: "start" | "slice" | "idle" | "read" | "wake" | "reset" | "flash" |
//   "halt" | "dormant"; t: the board's time now (ns); next: when the chip's next timer
//   alarm fires (null: none); q: bytes from the host the chip has not read
//   yet; r: how many times the firmware has read GPIO_IN so far;
//   ev: what the chip did since the last report, in order:
//     ["pin", t, gpio, state]   a pin's state changed (rp2040js
//                               GPIOPinState: 0 low, 1 high, 2 input,
//                               3 pull-up, 4 pull-down, 5 bus keeper)
//     ["spi", t, bus, sck, mosi, hex]  bytes clocked out (sck/mosi: the
//                               GPIOs muxed to that SPI, -1 if none)
//     ["usb", t, hex]           bytes the chip sent to the host
//     ["flash", t, op, addr, n] an erase ("E") or program ("P") finished
//     ["log", text]             the emulator complained
//   pw: emulated ns spent since the last report per power state, e.g.
//     {"run 125 SU": 1200, "wait 125 SU": 80000, "deep 12 -U": 5e6,
//      "dormant": 3e9, "flash": 45e6}: state (run | wait = WFI/WFE with
//     the clocks running | deep = WFI/WFE with SCR.SLEEPDEEP | dormant |
//     flash = the core stalled in a flash erase/program), clk_sys in MHz,
//     then which PLLs run (S = sys, U = usb, - = off).
// Replies {bits, wake, usb, adv, slice, flashsync, quit, adc}:
//   bits: the 30 GPIO input levels from now on; wake: report ("wake") when
//   the board's time reaches this ns (a BUSY falling, a button released);
//   usb: hex bytes from the host; adv: (to "idle") let the sleeping core's
//   time pass up to this ns; slice: ns to run between "slice" reports;
//   flashsync: report ("flash") after each flash operation, so a power
//   cut can land between two; quit: exit; adc: [ch0..ch4] raw 12-bit
//   values the ADC converts from now on (null: keep).
// A "read" report happens when the firmware reads GPIO_IN after it has
// changed a pin or sent SPI bytes since the last report: Python applies
// those first, so a BUSY read right after the panel's master activation
// sees it high, as on the real board.

import fs from 'node:fs';
import { RP2040, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { UF2Drop } from './uf2drop.mjs';
import { fastExecute } from './dispatch.mjs';

// rp2040js's decoder reached through a table of handlers on the opcode
// (dispatch.mjs: the same branches, the same results, about a third less
// CPU than the stock chain); should its
// source ever not be what dispatch.mjs expects, the stock one, and a
// word in the log
let execute = null, executeWhy = null;
try {
  execute = await fastExecute(import.meta.url);
} catch (e) {
  executeWhy = 'the stock instruction decoder (dispatch.mjs: ' + (e && e.message ? e.message : e) + ')';
}

// The fifth argument (optional): a UF2 file dragged onto the Pico's USB
// drive at power-on with BOOTSEL held; the bootrom itself writes it
// (uf2drop.mjs), then reboots into it.
const [bootromPath, flashPath, linkFd, startNs, dropPath] = process.argv.slice(2);
const LINK = Number(linkFd);
const FLASH_SIZE = 2 * 1024 * 1024;          // the Pico's W25Q16JV
// clk_sys is what rp2040js derives from the PLL and CLOCKS registers
// (125 MHz after the SDK's clock set-up, 12 MHz from the crystal in
// lightsleep): one cycle takes 1e9 / clk_sys ns.
// W25Q16JV datasheet, typical: page program 0.4 ms, sector (4 KB) erase
// 45 ms, block (64 KB) erase 150 ms. The core waits them out in the ROM.
const T_PROGRAM = 400e3, T_SECTOR = 45e6, T_BLOCK = 150e6;
const SIO_GPIO_IN = 0x004, SIO_GPIO_HI_IN = 0x008, SIO_FIFO_ST = 0x050, SIO_FIFO_WR = 0x054, SIO_FIFO_RD = 0x058;
const FIFO_RDY = 0x2;
const BKPT_ERASE = 0xe5, BKPT_PROGRAM = 0xe6, BKPT_USER_ERASE = 0xe7, BKPT_PAGE_PROGRAM = 0xe8;
// In USB boot mode the bootrom writes a dropped UF2 with its internal
// flash_user_erase(addr, cmd) and flash_page_program(addr, data), not
// through its function table: their addresses in the B1 ROM (whose SHA-256
// host/chip/images.py checks), found in flash_range_erase's and
// flash_range_program's calls.
const B1_FLASH_USER_ERASE = 0x1868, B1_FLASH_PAGE_PROGRAM = 0x189e;
const ERASE_SIZE = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
const USB_SOF_RD = 0x48, USB_INTE = 0x90, USB_INTR_DEV_SOF = 1 << 17;
const PPB_SCR = 0xd10, SCR_SLEEPDEEP = 0x4;
const WFI = 0xbf30;            // the Thumb opcode
const CLK_SLEEP_EN0 = 0xa8, CLK_SLEEP_EN1 = 0xac, SLEEP_EN0_ALL = 0xffffffff, SLEEP_EN1_ALL = 0x7fff;
const XOSC_DORMANT = 0x08, XOSC_COMA = 0x636f6d61, XOSC_WAKE = 0x77616b65;
const IO_DORMANT_WAKE_INTE0 = 0x160, IO_DORMANT_WAKE_INTE3 = 0x16c;
const PLL_PWR_PD = 0x1, PLL_PWR_VCOPD = 0x20;

// --- the flash file: read at power-on, written through ---------------------
const flash = new Uint8Array(FLASH_SIZE);
const flashFd = fs.openSync(flashPath, 'r+');
fs.readSync(flashFd, flash, 0, FLASH_SIZE, 0);
// (the Buffer's own bytes: Node 24 hands back a view into a bigger
// ArrayBuffer, whose start is not the file's; its .buffer from 0 gave a
// bootrom of other bytes, "bootrom has no function 4552")
const romFile = fs.readFileSync(bootromPath);
const bootrom = new Uint32Array(romFile.buffer.slice(romFile.byteOffset, romFile.byteOffset + 16384));

// --- link -------------------------------------------------------------------
let events = [];
let dirty = false;           // outputs Python has not seen yet
let pending = '';
function send(obj) {
  const data = Buffer.from(JSON.stringify(obj) + '\n');
  let off = 0;
  while (off < data.length) off += fs.writeSync(LINK, data, off);
}
const chunk = Buffer.alloc(65536);
function receive() {
  for (;;) {
    const nl = pending.indexOf('\n');
    if (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      return JSON.parse(line);
    }
    let n;
    try {
      n = fs.readSync(LINK, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0) process.exit(0);          // Python went away
    pending += chunk.toString('latin1', 0, n);
  }
}

// --- the chip ---------------------------------------------------------------
let mcu, clock, cdc;
let usbIn = [];              // bytes from the host, not yet read by the chip
let usbRead = null;          // a read the chip has armed (endpoint, size)
let stop = null;             // why the run loop must report now
let wakeAlarm;
let sliceNs = 1e6;
let flashSync = false;       // report after every flash erase/program
let bootsel = !!dropPath;    // BOOTSEL held at power-on
let gpioReads = 0;           // how often the firmware has read its inputs
// The board's time goes on across resets, while the chip's own timer
// starts again at 0: times on the link are epoch + the chip's clock.
let epoch = Number(startNs || 0);
// power accounting (docs/power.md): ns per state since the last report
let power = {};
let nsPerCycle = 8;
let scr = 0;                 // the core's System Control Register (SLEEPDEEP)
let sleepEn = [SLEEP_EN0_ALL, SLEEP_EN1_ALL];   // CLOCKS SLEEP_EN0/1: clocks kept in deep sleep
let dormant = false;         // the XOSC was told "coma": nothing runs
let wakeMask = new Uint8Array(30);   // per GPIO: dormant wake events (edge/level bits)

function now() {
  return Math.round(clock.nanos + epoch);
}

function emit(ev) {
  events.push(ev);
}

function plls() {
  const on = (pll) => !(pll.pwr & (PLL_PWR_PD | PLL_PWR_VCOPD));
  return (on(mcu.pllSys) ? 'S' : '-') + (on(mcu.pllUsb) ? 'U' : '-');
}

function powerState(kind) {
  // kind: 'run' | 'sleep' (the core waits) | 'dormant' | 'flash'
  if (kind === 'dormant' || kind === 'flash') return kind;
  const mhz = Math.round(mcu.clkSys / 1e5) / 10;
  // deep sleep gates the clocks SLEEP_EN leaves out; with every bit set
  // (as MicroPython leaves them after a lightsleep, SLEEPDEEP still on)
  // it is the same as a plain WFI/WFE
  const gated = sleepEn[0] >>> 0 !== SLEEP_EN0_ALL || (sleepEn[1] & SLEEP_EN1_ALL) !== SLEEP_EN1_ALL;
  const how = kind === 'run' ? 'run' : scr & SCR_SLEEPDEEP && gated ? 'deep' : 'wait';
  return how + ' ' + mhz + ' ' + plls();
}

function account(kind, ns) {
  if (ns <= 0) return;
  const key = powerState(kind);
  power[key] = (power[key] || 0) + ns;
}

function dormantWake(level, was) {
  // IO_BANK0 DORMANT_WAKE_INTE bits per GPIO: 0 level low, 1 level high,
  // 2 edge low, 3 edge high (RP2040 datasheet 2.19.6)
  for (let g = 0; g < 30; g++) {
    const m = wakeMask[g];
    if (!m) continue;
    const now = !!((level >>> g) & 1);
    const before = !!((was >>> g) & 1);
    if ((m & 1 && !now) || (m & 2 && now) || (m & 4 && before && !now) || (m & 8 && !before && now)) {
      return true;
    }
  }
  return false;
}

function inputBits() {
  let bits = 0;
  for (const pin of mcu.gpio) if (pin.rawInputValue) bits |= 1 << pin.index;
  return bits >>> 0;
}

function wakeUp() {
  dormant = false;
  xoscWrite(XOSC_DORMANT, XOSC_WAKE);     // the crystal restarts: STABLE again
}
let xoscWrite;

function romFunction(code) {
  // The bootrom's function table: pairs of 16-bit (code, address), 0-ended,
  // found through the 16-bit pointer at 0x14 (RP2040 datasheet 2.8.3).
  const half = (a) => (bootrom[a >>> 2] >>> ((a & 2) * 8)) & 0xffff;
  for (let p = half(0x14); half(p); p += 4) {
    if (half(p) === code) return half(p + 2) & ~1;
  }
  throw new Error('bootrom has no function ' + code.toString(16));
}

function patchHalf(rom, addr, value) {
  const i = addr >>> 2, shift = (addr & 2) * 8;
  rom[i] = (rom[i] & ~(0xffff << shift)) | (value << shift);
}

function flashOp(op, addr, n, cost) {
  fs.writeSync(flashFd, flash, addr, n, addr);
  mcu.flash.set(flash.subarray(addr, addr + n), addr);
  emit(['flash', now(), op, addr, n]);
  clock.tick(cost);              // the core waits in the ROM meanwhile
  account('flash', cost);
  if (flashSync) stop = stop || 'flash';
}

function eraseFlash(addr, count, blockSize) {
  // flash_range_erase(addr, count, block_size, block_cmd)
  addr >>>= 0;
  const end = Math.min(addr + count, FLASH_SIZE);
  let cost = 0;
  for (let a = addr; a < end;) {
    const big = blockSize > 4096 && a % blockSize === 0 && a + blockSize <= end;
    const size = big ? blockSize : 4096;
    cost += big ? T_BLOCK : T_SECTOR;
    a += size;
  }
  if (end > addr) {
    flash.fill(0xff, addr, end);
    flashOp('E', addr, end - addr, cost);
  }
}

function programFlash(addr, src, count) {
  // flash_range_program(addr, data, count): NOR flash only clears bits.
  addr >>>= 0;
  const end = Math.min(addr + count, FLASH_SIZE);
  for (let a = addr; a < end; a++) {
    flash[a] &= mcu.readUint8(src + (a - addr));
  }
  if (end > addr) flashOp('P', addr, end - addr, T_PROGRAM * Math.ceil((end - addr) / 256));
}

function spiPins(bus) {
  // RP2040 function 1 = SPI; SPI0 sits on GPIO 0-7 and 16-23, SPI1 on the
  // others; within each group of four: RX, CSn, SCK, TX.
  let sck = -1, mosi = -1;
  for (const pin of mcu.gpio) {
    const g = pin.index;
    if (pin.functionSelect !== 1 || ((g >> 3) & 1) !== bus) continue;
    if (g % 4 === 2 && sck < 0) sck = g;
    if (g % 4 === 3 && mosi < 0) mosi = g;
  }
  return [sck, mosi];
}

function makeChip(watchdogReset = false) {
  // A watchdog reset keeps the watchdog's reason and scratch registers
  // (how machine.reset_cause() knows); a power-on clears them.
  const before = mcu && mcu.peripherals[0x40058];
  if (clock) epoch += clock.nanos;
  mcu = new RP2040();
  if (execute) mcu.core.executeInstruction = execute;
  else if (executeWhy) {
    emit(['log', executeWhy]);      // once, not at every reset
    executeWhy = null;
  }
  clock = mcu.clock;
  nsPerCycle = 1e9 / mcu.clkSys;
  mcu.addClockListener((hz) => {
    nsPerCycle = 1e9 / hz;
  });
  scr = 0;
  sleepEn = [SLEEP_EN0_ALL, SLEEP_EN1_ALL];
  dormant = false;
  const clocks = mcu.clocks;
  const clkRead = clocks.readUint32.bind(clocks);
  const clkWrite = clocks.writeUint32.bind(clocks);
  clocks.readUint32 = (offset) => {
    if (offset === CLK_SLEEP_EN0) return sleepEn[0] >>> 0;
    if (offset === CLK_SLEEP_EN1) return sleepEn[1] & SLEEP_EN1_ALL;
    return clkRead(offset);
  };
  clocks.writeUint32 = (offset, value) => {
    if (offset === CLK_SLEEP_EN0) sleepEn[0] = value >>> 0;
    else if (offset === CLK_SLEEP_EN1) sleepEn[1] = value & SLEEP_EN1_ALL;
    else clkWrite(offset, value);
  };
  wakeMask = new Uint8Array(30);
  // SCR (SLEEPDEEP) is not kept by rp2040js: keep it here
  const ppb = mcu.ppb;
  const ppbRead = ppb.readUint32.bind(ppb);
  const ppbWrite = ppb.writeUint32.bind(ppb);
  ppb.readUint32 = (offset) => (offset === PPB_SCR ? scr : ppbRead(offset));
  ppb.writeUint32 = (offset, value) => {
    if (offset === PPB_SCR) scr = value & 0x16;
    else ppbWrite(offset, value);
  };
  // WFI with PRIMASK set (MicroPython's lightsleep runs in an atomic
  // section): an interrupt ends the wait but is taken only once PRIMASK is
  // cleared (ARMv6-M ARM, B1.5.19 and WFI); rp2040js took the exception at
  // once, inside the atomic section. A WFI with such an interrupt already
  // pending does not wait at all: run() checks that after each WFI.
  const core = mcu.core;
  const setIrq = core.setInterrupt.bind(core);
  core.setInterrupt = (irq, value) => {
    const bit = 1 << irq;
    if (value && core.waiting && core.PM && !(core.pendingInterrupts & bit)) {
      core.pendingInterrupts |= bit;
      core.interruptsUpdated = true;      // taken when PRIMASK is cleared
      if (core.enabledInterrupts & bit) core.waiting = false;
      return;
    }
    setIrq(irq, value);
  };
  // A PLL that is powered down is not locked (rp2040js says it always is):
  // the SDK's pll_init skips a PLL that reads locked with the same dividers,
  // which left it powered down (in our books) after every lightsleep
  for (const pll of [mcu.pllSys, mcu.pllUsb]) {
    const pllRead = pll.readUint32.bind(pll);
    pll.readUint32 = (offset) => {
      const v = pllRead(offset);
      if (offset === 0 && pll.pwr & (PLL_PWR_PD | PLL_PWR_VCOPD)) return (v & 0x7fffffff) >>> 0;
      return v;
    };
  }
  // DORMANT: the XOSC's "coma" stops everything until a dormant wake
  const xosc = mcu.peripherals[0x40024];
  const xoscW = xosc.writeUint32.bind(xosc);
  xoscWrite = xoscW;
  xosc.writeUint32 = (offset, value) => {
    xoscW(offset, value);
    if (offset === XOSC_DORMANT && value >>> 0 === XOSC_COMA) dormant = true;
  };
  // IO_BANK0's DORMANT_WAKE_INTE0..3 (rp2040js ignores them): 4 bits per GPIO
  const io = mcu.peripherals[0x40014];
  const ioRead = io.readUint32.bind(io);
  const ioWrite = io.writeUint32.bind(io);
  const isWake = (o) => o >= IO_DORMANT_WAKE_INTE0 && o <= IO_DORMANT_WAKE_INTE3;
  io.readUint32 = (offset) => {
    if (!isWake(offset)) return ioRead(offset);
    const first = ((offset - IO_DORMANT_WAKE_INTE0) >> 2) * 8;
    let v = 0;
    for (let i = 7; i >= 0; i--) v = (v << 4) | (first + i < 30 ? wakeMask[first + i] : 0);
    return v >>> 0;
  };
  io.writeUint32 = (offset, value) => {
    if (!isWake(offset)) return ioWrite(offset, value);
    const first = ((offset - IO_DORMANT_WAKE_INTE0) >> 2) * 8;
    for (let i = 0; i < 8 && first + i < 30; i++) wakeMask[first + i] = (value >>> (4 * i)) & 0xf;
  };
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  const rom = new Uint32Array(bootrom);
  patchHalf(rom, romFunction(0x4552), 0xbe00 | BKPT_ERASE);    // 'R','E'
  patchHalf(rom, romFunction(0x5052), 0xbe00 | BKPT_PROGRAM);  // 'R','P'
  if (bootsel) {
    patchHalf(rom, B1_FLASH_USER_ERASE, 0xbe00 | BKPT_USER_ERASE);
    patchHalf(rom, B1_FLASH_PAGE_PROGRAM, 0xbe00 | BKPT_PAGE_PROGRAM);
  }
  mcu.loadBootrom(rom);
  mcu.flash.set(flash);
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    if (code === BKPT_ERASE) eraseFlash(r[0], r[1], r[2]);
    else if (code === BKPT_PROGRAM) programFlash(r[0], r[1], r[2]);
    else if (code === BKPT_USER_ERASE) eraseFlash(r[0], ERASE_SIZE[r[1] & 0xff] || 4096, 4096);
    else if (code === BKPT_PAGE_PROGRAM) programFlash(r[0], r[1], 256);
    else {
      emit(['log', 'breakpoint ' + code + ' at 0x' + (mcu.core.PC - 2).toString(16)]);
      return;
    }
    mcu.core.PC = mcu.core.LR & ~1;          // return from the ROM call
  };

  // Core 1 does not exist: its FIFO is never valid and always has room.
  const sio = mcu.sio;
  const sioRead = sio.readUint32.bind(sio);
  const sioWrite = sio.writeUint32.bind(sio);
  sio.readUint32 = (offset) => {
    if (offset === SIO_GPIO_IN) {
      gpioReads++;
      if (dirty) applyReply(exchange('read'));
    }
    if (offset === SIO_FIFO_ST) return 0xffffffff;
    if (offset === SIO_GPIO_HI_IN && bootsel) return sioRead(offset) & ~2;   // QSPI CSn low: BOOTSEL
    if (offset === SIO_FIFO_RD) return 0xffffffff;
    return sioRead(offset);
  };
  sio.writeUint32 = (offset, value) => {
    if (offset !== SIO_FIFO_WR) sioWrite(offset, value);
  };

  for (const pin of mcu.gpio) {
    pin.addListener((state) => {
      emit(['pin', now(), pin.index, state]);
      dirty = true;
    });
  }

  mcu.spi.forEach((spi, bus) => {
    const done = clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      const last = events[events.length - 1];
      const hex = (value & 0xff).toString(16).padStart(2, '0');
      if (last && last[0] === 'spi' && last[2] === bus) last[5] += hex;
      else emit(['spi', now(), bus, ...spiPins(bus), hex]);
      dirty = true;
      // the byte takes its time on the wire (8 bits at the SPI clock)
      const hz = spi.clockFrequency || 1e6;
      done.schedule(Math.round((spi.dataBits * 1e9) / hz));
    };
  });

  // A 32-bit store to SRAM goes straight in: rp2040js looks every store's
  // address up among its peripherals first (a dictionary lookup; the
  // stack's pushes and MicroPython's heap are most of the stores)
  const sramView = mcu.sramView, sramEnd = mcu.sram.length - 3;
  const store32 = mcu.writeUint32.bind(mcu);
  mcu.writeUint32 = (a, v) => {
    const o = (a >>> 0) - 0x20000000;
    if (o >= 0 && o < sramEnd) sramView.setUint32(o, v, true);
    else store32(a, v);
  };
  if (bootsel) {
    // The bootrom runs from its reset vector. rp2040js leaves CHIP_RESET
    // (0x40064008) unimplemented, reading all ones: the bootrom would take
    // it as a debugger's rescue request and halt. A power-on reads HAD_POR.
    const vreg = mcu.peripherals[0x40064];
    const vregRead = vreg.readUint32.bind(vreg);
    vreg.readUint32 = (offset) => (offset === 8 ? 0x100 : vregRead(offset));
    // The bootrom keeps its bitmaps of the blocks written and the sectors
    // erased in the XIP cache used as RAM (16 KB at 0x15000000), which
    // rp2040js does not map: reads gave all ones (every block "already
    // written") and the drop was ignored.
    const xipRam = new DataView(new ArrayBuffer(16384));
    const read32 = mcu.readUint32.bind(mcu), write32 = mcu.writeUint32.bind(mcu);
    mcu.readUint32 = (a) => ((a >>> 14) === 0x5400 ? xipRam.getUint32(a & 0x3ffc, true) : read32(a));
    mcu.writeUint32 = (a, v) => ((a >>> 14) === 0x5400 ? xipRam.setUint32(a & 0x3ffc, v >>> 0, true) : write32(a, v));
    // the bootrom's USB drive, the file dragged onto it
    new UF2Drop(mcu, fs.readFileSync(dropPath),
      (done, total) => emit(['drop', now(), done, total]),
      (text) => emit(['log', 'UF2 drop: ' + text]));
  } else {
    usbCdc();
  }

  // The host's start of frame, every 1 ms while INTE asks for it; reading
  // SOF_RD acknowledges it (RP2040 datasheet 4.1.2.5).
  const usb = mcu.usbCtrl;
  let sofOn = false;
  const sof = clock.createAlarm(() => {
    sofOn = !!(usb.intEnable & USB_INTR_DEV_SOF);
    if (!sofOn) return;
    usb.sofFrameNumber = (usb.sofFrameNumber + 1) & 0x7ff;
    usb.intRaw |= USB_INTR_DEV_SOF;
    usb.checkInterrupts();
    sof.schedule(1e6);
  });
  const usbRead32 = usb.readUint32.bind(usb);
  const usbWrite32 = usb.writeUint32.bind(usb);
  usb.readUint32 = (offset) => {
    if (offset === USB_SOF_RD && usb.intRaw & USB_INTR_DEV_SOF) {
      usb.intRaw &= ~USB_INTR_DEV_SOF;
      usb.checkInterrupts();
    }
    return usbRead32(offset);
  };
  usb.writeUint32 = (offset, value) => {
    usbWrite32(offset, value);
    if (offset === USB_INTE && usb.intEnable & USB_INTR_DEV_SOF && !sofOn) {
      sofOn = true;
      sof.schedule(1e6);
    }
  };

  const watchdog = mcu.peripherals[0x40058];
  if (watchdogReset && before) {
    watchdog.reason = before.reason;
    watchdog.scratchData.set(before.scratchData);
  }
  watchdog.onWatchdogTrigger = () => {
    stop = 'reset';
    // A countdown that ran out (the bootrom's reboot after a UF2 drop):
    // rp2040js re-arms its alarm for the counter's value, now 0, so it
    // would fire again at the same instant for ever. The chip is rebuilt.
    watchdog.alarm.enable = false;
  };
  wakeAlarm = clock.createAlarm(() => {
    stop = stop || 'wake';
  });
  usbIn = [];
  usbRead = null;
  // no bootloader: straight into the image's boot2 (with BOOTSEL held, the
  // bootrom from its reset vector, into its USB boot mode)
  if (!bootsel) mcu.core.PC = 0x10000000;
}

function usbCdc() {
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (data) => {
    const last = events[events.length - 1];
    const hex = Buffer.from(data).toString('hex');
    if (last && last[0] === 'usb') last[2] += hex;
    else emit(['usb', now(), hex]);
  };
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    usbRead = { endpoint, size };
    serveUsb();
  };
}

function serveUsb() {
  if (!usbRead || !usbIn.length) return;
  const n = Math.min(usbRead.size, usbIn.length);
  const data = Uint8Array.from(usbIn.splice(0, n));
  mcu.usbCtrl.endpointReadDone(usbRead.endpoint, data);
  usbRead = null;
}

function exchange(why) {
  const next = clock.nextAlarm ? Math.round(clock.nextAlarm.nanos + epoch) : null;
  const report = { why, t: now(), next, q: usbIn.length, r: gpioReads, ev: events, pw: power };
  events = [];
  power = {};
  dirty = false;
  send(report);
  return receive();
}

function applyReply(reply) {
  if (reply.quit) process.exit(0);
  if (reply.bits !== undefined) {
    const was = inputBits();
    if (dormant && dormantWake(reply.bits >>> 0, was)) wakeUp();
    for (const pin of mcu.gpio) {
      const level = !!((reply.bits >>> pin.index) & 1);
      if (pin.rawInputValue !== level) pin.setInputValue(level);
    }
  }
  if (reply.wake !== undefined) {
    if (reply.wake === null) wakeAlarm.cancel();
    else wakeAlarm.schedule(Math.max(0, reply.wake - epoch - clock.nanos));
  }
  if (reply.usb) {
    for (const b of Buffer.from(reply.usb, 'hex')) usbIn.push(b);
    serveUsb();
  }
  if (reply.slice) sliceNs = reply.slice;
  if (reply.adc) {
    reply.adc.forEach((v, ch) => {
      if (v !== null && v !== undefined) mcu.adc.channelValues[ch] = v & 0xfff;
    });
  }
  if (reply.flashsync !== undefined) flashSync = !!reply.flashsync;
}

function run() {
  // Execute until the slice is over, the core sleeps, or something needs
  // Python (an alarm we asked for, a reset).
  const core = mcu.core;
  const end = clock.nanos + sliceNs;
  let ran = 0;
  while (stop === null) {
    if (dormant) {
      // a level wake that holds already (the pin was low when it slept)
      if (dormantWake(inputBits(), inputBits())) {
        wakeUp();
        continue;
      }
      account('run', ran);
      return 'dormant';
    }
    if (core.waiting) {
      account('run', ran);
      return 'idle';
    }
    if (clock.nanos >= end) {
      account('run', ran);
      return 'slice';
    }
    const ns = core.executeInstruction() * nsPerCycle;
    ran += ns;
    clock.tick(ns);
    if (core.waiting && core.PM && core.pendingInterrupts & core.enabledInterrupts &&
        core.readUint16((core.PC - 2) & ~1) === WFI) {
      // an interrupt that came in masked (PRIMASK) before the WFI: pending,
      // so the WFI completes at once (rp2040js waited for a new one)
      core.waiting = false;
    }
  }
  account('run', ran);
  const why = stop;
  stop = null;
  return why;
}

makeChip();
let reply = exchange('start');
for (;;) {
  applyReply(reply);
  if (reply.adv !== undefined && dormant) {
    // DORMANT: every clock is stopped, no alarm can wake the chip; time
    // passes as Python says (a GPIO wake in the bits above ends it)
    const target = reply.adv - epoch;
    if (target > clock.nanos) {
      account('dormant', target - clock.nanos);
      clock.tick(target - clock.nanos);
    }
  } else if (reply.adv !== undefined && mcu.core.waiting) {
    // Let the sleeping core's time pass, never beyond its next alarm (an
    // alarm's interrupt must wake it before anything later happens).
    // Times cross the link in whole ns, but a cycle at 12 MHz (clk_sys in
    // lightsleep) is 83.33 ns, so the clock and its alarms sit between
    // whole ns: an "adv" up to the reported (rounded) alarm may fall a
    // fraction short of it. Reaching it counts as reaching the alarm;
    // without that the core waited for an alarm that never fired, and
    // Python for the core, forever (a press "not taken" in the chip HIL
    // suite since the table sleeps, 2026-12-03).
    const next = clock.nextAlarm ? clock.nextAlarm.nanos : Infinity;
    const adv = reply.adv - epoch;
    const target = next - adv < 1 ? next : adv;
    if (target > clock.nanos) {
      account('sleep', target - clock.nanos);
      clock.tick(target - clock.nanos);
    }
  }
  let why;
  try {
    why = run();
  } catch (e) {
    // rp2040js throws where the real chip would hard-fault
    emit(['log', String(e && e.message ? e.message : e)]);
    send({ why: 'halt', t: now(), next: null, q: 0, ev: events });
    process.exit(3);
  }
  if (why === 'reset') {
    bootsel = false;           // the button was let go after plugging in
    makeChip(true);
  }
  reply = exchange(why);
}
