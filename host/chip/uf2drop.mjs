// Dragging a UF2 file onto the Pico's USB drive (RPI-RP2), as a computer
// does it: the USB host side of mass storage (bulk-only transport, SCSI
// WRITE(10)), for the emulated Pico while its bootrom is in USB boot mode
// (BOOTSEL held at power-on; glue.mjs). The bootrom itself decides what
// each 512-byte sector means: UF2 blocks are written to flash by its own
// code (virtual_disk.c of raspberrypi/pico-bootrom-rp2040), erases and
// all, so whatever it does with a file's block numbers happens here too.
//
// A computer's file system writes the file's sectors somewhere in the
// drive's data area, plus a directory entry and FAT sectors, which the
// bootrom ignores: here the UF2 blocks go, one per WRITE(10), in file order
// to consecutive sectors of the data area.
//
// What rp2040js 1.4.1 leaves out and this file does for the two bulk
// endpoints of the drive: double buffering (the bootrom arms both buffers
// of an endpoint and takes packets from them in turn; rp2040js only
// serves buffer 0 and leaves BUFF_CPU_SHOULD_HANDLE at 0), and telling a
// real bus reset from the device clearing its status bits at start-up
// (rp2040js reports both as onResetReceived).

const DESC_CONFIGURATION = 2, DESC_INTERFACE = 4, DESC_ENDPOINT = 5;
const CLASS_MASS_STORAGE = 8;
const DATA_LBA = 0x1000;          // a sector well inside the bootrom's 128 MB volume
// USB controller registers and DPRAM layout (RP2040 datasheet 4.1.2.5, 4.1.4)
const EP1_IN_CONTROL = 0x08, EP0_IN_BUFFER_CONTROL = 0x80;
const BUFF_CPU_SHOULD_HANDLE = 0x5c;
const AVAILABLE = 1 << 10, FULL = 1 << 15, LEN_MASK = 0x3ff;

function setup(type, request, value, index, length) {
  return Uint8Array.of(type, request, value & 0xff, value >> 8, index & 0xff, index >> 8,
    length & 0xff, length >> 8);
}

function mscEndpoints(desc) {
  // the bulk IN and OUT endpoints of the mass-storage interface
  let inEp = -1, outEp = -1, msc = false;
  for (let i = 0; i + 1 < desc.length && desc[i] >= 2; i += desc[i]) {
    const len = desc[i], type = desc[i + 1];
    if (type === DESC_INTERFACE && len >= 9) msc = desc[i + 5] === CLASS_MASS_STORAGE;
    if (msc && type === DESC_ENDPOINT && len >= 7 && (desc[i + 3] & 3) === 2) {
      if (desc[i + 2] & 0x80) inEp = desc[i + 2] & 0xf;
      else outEp = desc[i + 2] & 0xf;
    }
  }
  return { inEp, outEp };
}

function writeCommand(tag, lba) {
  // a Command Block Wrapper: 512 bytes, host to device, WRITE(10) of one sector
  const cbw = new Uint8Array(31);
  const v = new DataView(cbw.buffer);
  v.setUint32(0, 0x43425355, true);   // 'USBC'
  v.setUint32(4, tag, true);
  v.setUint32(8, 512, true);
  cbw[12] = 0x00;                      // data out
  cbw[13] = 0;                         // LUN 0
  cbw[14] = 10;
  cbw[15] = 0x2a;                      // WRITE(10)
  v.setUint32(17, lba, false);
  v.setUint16(22, 1, false);           // one sector
  return cbw;
}

export class UF2Drop {
  // mcu: the RP2040; uf2: the file's bytes; progress(done, total) after each
  // sector the drive acknowledged; fail(text) when it refuses one.
  constructor(mcu, uf2, progress, fail) {
    const usb = mcu.usbCtrl;
    this.mcu = mcu;
    this.usb = usb;
    this.dpram = mcu.usbDPRAMView;
    this.uf2 = uf2;
    this.total = Math.floor(uf2.length / 512);
    this.done = 0;
    this.progress = progress;
    this.fail = fail;
    this.state = 'reset';
    this.desc = [];
    this.descSize = 0;
    this.packets = [];                 // what goes out next on the OUT endpoint
    this.armed = [];                   // OUT buffers the device has given, in order
    this.shouldHandle = 0;             // BUFF_CPU_SHOULD_HANDLE: buffer 1 completed
    this.ep = { inEp: -1, outEp: -1 };
    this.deliver = mcu.clock.createAlarm(() => this.serve());

    this.busReset = false;
    const reset = usb.resetAlarm.callback;
    usb.resetAlarm.callback = () => {
      this.busReset = true;
      reset();
    };
    usb.onUSBEnabled = () => usb.resetDevice();
    usb.onResetReceived = () => {
      if (!this.busReset) return;      // the device clearing its status, not a reset
      this.busReset = false;
      this.state = 'address';
      usb.sendSetupPacket(setup(0x00, 5, 1, 0, 0));                // SET_ADDRESS 1
    };
    usb.onEndpointWrite = (endpoint, buffer) => {
      if (endpoint === 0) this.control(buffer);
    };
    usb.onEndpointRead = (endpoint) => {
      if (endpoint === 0) usb.endpointReadDone(0, new Uint8Array(0));   // a status stage
    };
    const read32 = usb.readUint32.bind(usb);
    usb.readUint32 = (offset) => {
      if (offset === BUFF_CPU_SHOULD_HANDLE) return this.shouldHandle;
      return read32(offset);
    };
    const updated = usb.DPRAMUpdated.bind(usb);
    usb.DPRAMUpdated = (offset, value) => {
      const ep = (offset - EP0_IN_BUFFER_CONTROL) >> 3;
      if (offset >= EP0_IN_BUFFER_CONTROL && ep > 0 &&
          (ep === this.ep.outEp && offset & 4 || ep === this.ep.inEp && !(offset & 4))) {
        this.bulk(offset, ep, !!(offset & 4), value);
        return;
      }
      updated(offset, value);
    };
  }

  // -- the control endpoint: enumeration -----------------------------------
  control(buffer) {
    const usb = this.usb;
    if (this.state === 'address' && buffer.length === 0) {
      this.state = 'config-head';
      usb.sendSetupPacket(setup(0x80, 6, DESC_CONFIGURATION << 8, 0, 9));
    } else if (this.state === 'config-head' && buffer.length >= 4) {
      this.descSize = buffer[2] | (buffer[3] << 8);
      this.state = 'config';
      usb.sendSetupPacket(setup(0x80, 6, DESC_CONFIGURATION << 8, 0, this.descSize));
    } else if (this.state === 'config' && buffer.length) {
      this.desc.push(...buffer);
      if (this.desc.length >= this.descSize) {
        this.ep = mscEndpoints(this.desc);
        if (this.ep.inEp < 0 || this.ep.outEp < 0) {
          this.fail('the device is not a USB drive (no mass-storage interface)');
          return;
        }
        this.state = 'configure';
        usb.sendSetupPacket(setup(0x00, 9, 1, 0, 0));              // SET_CONFIGURATION 1
      }
    } else if (this.state === 'configure' && buffer.length === 0) {
      this.state = 'writing';
      this.next();
    }
  }

  // -- the bulk endpoints, both buffers ------------------------------------
  bufferAddress(ep, out, buf) {
    const control = this.dpram.getUint32(EP1_IN_CONTROL + 8 * (ep - 1) + (out ? 4 : 0), true);
    return (control & 0xffc0) + 64 * buf;
  }

  bulk(offset, ep, out, value) {
    for (const buf of [0, 1]) {
      const half = (value >>> (16 * buf)) & 0xffff;
      if (!(half & AVAILABLE)) continue;
      if (out) {
        if (!this.armed.includes(buf)) this.armed.push(buf);
      } else if (half & FULL) {
        // a packet for the host: the hardware takes it and empties the buffer
        const at = this.bufferAddress(ep, false, buf);
        const data = this.mcu.usbDPRAM.slice(at, at + (half & LEN_MASK));
        this.complete(offset, buf, ep * 2);
        this.fromDrive(data);
        return;
      }
    }
    this.deliver.schedule(10e3);     // 10 us: a packet on the wire
  }

  complete(offset, buf, bit) {
    // the hardware's side of a finished buffer: not available any more,
    // (OUT) full; BUFF_STATUS and BUFF_CPU_SHOULD_HANDLE say which
    let value = this.dpram.getUint32(offset, true);
    value &= ~(AVAILABLE << (16 * buf));
    this.dpram.setUint32(offset, value, true);
    const mask = 1 << bit;
    this.shouldHandle = buf ? this.shouldHandle | mask : this.shouldHandle & ~mask;
    this.usb.buffStatus |= mask;
    this.usb.buffStatusUpdated();
  }

  serve() {
    // the next packet into the buffer the device gave first
    if (!this.packets.length || !this.armed.length) return;
    const ep = this.ep.outEp;
    const buf = this.armed.shift();
    const packet = this.packets.shift();
    const offset = EP0_IN_BUFFER_CONTROL + 8 * ep + 4;
    this.mcu.usbDPRAM.set(packet, this.bufferAddress(ep, true, buf));
    let value = this.dpram.getUint32(offset, true);
    const shift = 16 * buf;
    value = (value & ~((LEN_MASK | AVAILABLE) << shift)) | ((FULL | packet.length) << shift);
    this.dpram.setUint32(offset, value, true);
    this.complete(offset, buf, ep * 2 + 1);
    if (this.packets.length && this.armed.length) this.deliver.schedule(10e3);
  }

  // -- mass storage: one WRITE(10) per UF2 block ----------------------------
  fromDrive(data) {
    // the Command Status Wrapper of the sector just sent
    if (this.state !== 'writing' || data.length !== 13) return;
    const v = new DataView(data.buffer, data.byteOffset, 13);
    if (v.getUint32(0, true) !== 0x53425355) return;          // 'USBS'
    if (data[12] !== 0) {
      this.fail('the drive refused sector ' + this.done + ' of ' + this.total);
      return;
    }
    this.done++;
    this.progress(this.done, this.total);
    this.next();
  }

  next() {
    if (this.done >= this.total) {
      this.state = 'done';
      return;
    }
    const i = this.done;
    this.packets.push(writeCommand(i + 1, DATA_LBA + i));
    const block = this.uf2.subarray(i * 512, i * 512 + 512);
    for (let off = 0; off < 512; off += 64) this.packets.push(block.subarray(off, off + 64));
    this.deliver.schedule(10e3);
  }
}
