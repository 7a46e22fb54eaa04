// rp2040js's own instruction decoder, reached by a jump instead of a walk.
//
// CortexM0Core.executeInstruction (rp2040js 1.4.1) decodes a Thumb opcode
// by one if/else chain of 83 tests in alphabetical order (ADCS, ADD, ...,
// YIELD): a STR or a MOVS is reached after 40-70 failed tests, on every
// instruction the emulated Pico runs. Here the same function is rebuilt
// from rp2040js's own source text with the chain cut into small handler
// functions, one per set of opcodes that can take the same branches, and
// reached through a table indexed by the opcode's top ten bits; each
// handler keeps, in the chain's order, only the branches its opcodes can
// take. The branches' conditions and bodies are rp2040js's, untouched
// (a handler runs them with the core as `this`, as the chain did), so the
// result is the same instruction for instruction; only the walk to the
// branch is shorter.
//
// Why handlers and not one switch: the first version was the chain split
// by a `switch` in one function. V8 optimizes that ~1,100-line function
// as a whole; as 74 small functions each is optimized on its own, with
// what its own instructions need. The same boot of the 2.9" table to
// READY (1.34 s of the chip's time): 3.47 s of Node's CPU with the
// switch, 2.87 s with the table (medians of 6, alternated; 0.83).
//
// Why it is exact. A 16-bit instruction runs with opcode2 = 0, so the
// branch it takes is the chain's first whose condition holds for
// (opcode, 0), and a handler keeps exactly the branches its 64 opcodes take:
// for each of them no kept branch before its own can hold, since none in
// the whole chain did. A 32-bit instruction (top five bits 0b11101,
// 0b11110, 0b11111) also depends on opcode2: its handlers keep every branch
// whose condition names opcode2, and every other branch whose condition
// holds for one of their opcodes; a branch left out can never hold there.
// Every condition is checked to read nothing but opcode and opcode2
// before any of this is trusted, and every body to name no local of
// executeInstruction but opcode, opcode2, opcodePC and deltaCycles (which
// a handler takes and gives back) and to hold no `return`; anything
// unexpected in the source throws (glue.mjs then runs the stock decoder
// and says so).
// tests/chip/test_dispatch.py compares both decoders opcode by opcode and
// over a boot of the stock MicroPython image, instruction by instruction.
//
// Measured (a test-mode game of 40 presses from power-on, 13.1 s of the
// chip's time, three runs each, alternated): Node CPU 31.0-32.4 s with the
// stock decoder, 24.3-25.9 s with the switch and glue.mjs's SRAM stores.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const WIDE = (key) => key >> 5 === 0b11101 || key >> 6 === 0b1111;   // key = opcode >> 6

function closing(src, i) {
  // the index just past the bracket that closes the one at src[i],
  // skipping strings, template literals (and their ${...}) and comments
  const stack = [];
  for (; i < src.length; i++) {
    const c = src[i];
    if (stack[stack.length - 1] === '`') {
      if (c === '\\') i++;
      else if (c === '`') stack.pop();
      else if (c === '$' && src[i + 1] === '{') { stack.push('${'); i++; }
      continue;
    }
    if (c === '/' && src[i + 1] === '/') { i = src.indexOf('\n', i); continue; }
    if (c === '/' && src[i + 1] === '*') { i = src.indexOf('*/', i) + 1; continue; }
    if (c === "'" || c === '"') {
      for (i++; src[i] !== c; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (c === '`' || c === '{' || c === '(' || c === '[') stack.push(c);
    else if (c === '}' || c === ')' || c === ']') {
      const open = stack.pop();
      if (open !== '${' && stack.length === 0) return i + 1;
    }
  }
  throw new Error('unbalanced brackets');
}

function skipSpace(src, i) {
  for (;;) {
    const m = /^(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(src.slice(i, i + 200));
    if (!m) return i;
    i += m[0].length;
  }
}

/** The chain of executeInstruction in cortex-m0-core.js's source:
 * {branches: [{cond, body}], last (the final else's block), start, end}. */
export function parseChain(src) {
  const fn = src.indexOf('\n    executeInstruction() {');
  if (fn < 0) throw new Error('no executeInstruction');
  const fnEnd = closing(src, src.indexOf('{', fn));
  const start = src.indexOf('if (opcode >> 6 === 0b0100000101)', fn);   // ADCS, the first
  if (start < 0 || start > fnEnd) throw new Error('executeInstruction has no chain starting with ADCS');
  const branches = [];
  let i = start;
  for (;;) {
    const head = /^(else\s+)?if\s*\(/.exec(src.slice(i, i + 16));
    if (!head) throw new Error('unexpected text in the chain: ' + src.slice(i, i + 40));
    const open = i + head[0].length - 1;
    const condEnd = closing(src, open);
    const bodyAt = skipSpace(src, condEnd);
    if (src[bodyAt] !== '{') throw new Error('a branch without a block');
    const bodyEnd = closing(src, bodyAt);
    branches.push({ cond: src.slice(open + 1, condEnd - 1), body: src.slice(bodyAt, bodyEnd) });
    i = skipSpace(src, bodyEnd);
    if (/^else\s+if\b/.test(src.slice(i, i + 16))) continue;
    if (!/^else\s*\{/.test(src.slice(i, i + 16))) throw new Error('the chain has no final else');
    const lastAt = src.indexOf('{', i);
    const end = closing(src, lastAt);
    if (end > fnEnd) throw new Error('the chain runs past executeInstruction');
    return { branches, last: src.slice(lastAt, end), start, end };
  }
}

/** Which branches (indexes, in order) each key (opcode >> 6) needs. */
export function branchesByKey(branches) {
  const pure = (c) => (c.replace(/\b0[bx][0-9a-f]+\b|\b\d+\b/gi, '').match(/[A-Za-z_$][\w$]*/g) || [])
    .every((w) => w === 'opcode' || w === 'opcode2');
  const bad = branches.find((b) => !pure(b.cond));
  if (bad) throw new Error('a condition reads more than the opcode: ' + bad.cond);
  const first = new Function('opcode', 'opcode2',
    branches.map((b, i) => `if (${b.cond}) return ${i};`).join('\n') + '\nreturn -1;');
  const names2 = branches.map((b) => /\bopcode2\b/.test(b.cond));
  const holds = new Function('opcode', 'opcode2',
    'const r = [];\n' + branches.map((b, i) => (names2[i] ? '' : `if (${b.cond}) r.push(${i});`)).join('\n') +
    '\nreturn r;');
  const keys = [];
  for (let key = 0; key < 1024; key++) {
    const need = new Set();
    for (let op = key << 6; op < (key + 1) << 6; op++) {
      if (!WIDE(key)) {
        const i = first(op, 0);
        if (i >= 0) need.add(i);
      } else {
        for (const i of holds(op, 0)) need.add(i);
      }
    }
    if (WIDE(key)) names2.forEach((n, i) => n && need.add(i));
    keys.push([...need].sort((a, b) => a - b));
  }
  return keys;
}

// The locals of executeInstruction a branch may use: what the chain had
// when it started (a handler takes them as its arguments)
const LOCALS = new Set(['opcode', 'opcode2', 'opcodePC', 'deltaCycles']);
// and the one it has only for its own use: no branch may read it
const PROLOGUE = new Set(['wideInstruction']);

function checkBody(body, others) {
  // the handler gives deltaCycles back at its end: a branch must not
  // return, and may update deltaCycles only by adding to it; it must not
  // read a local of executeInstruction that a handler does not take
  if (/\breturn\b/.test(body)) throw new Error('a branch returns: ' + body.slice(0, 80));
  const assigned = body.match(/\bdeltaCycles\s*(\+\+|\+=|-=|=(?!=))/g) || [];
  if (assigned.some((a) => !/(\+\+|\+=)$/.test(a))) throw new Error('a branch sets deltaCycles: ' + body.slice(0, 80));
  for (const name of others) {
    if (new RegExp('\\b' + name + '\\b').test(body)) throw new Error('a branch reads ' + name);
  }
}

/** cortex-m0-core.js's source with executeInstruction's chain as a table
 * of handlers: ``__H[opcode >> 6]`` runs, with the core as ``this``, the
 * branches that key's opcodes can take, in the chain's order. */
export function transform(src) {
  const { branches, last, start, end } = parseChain(src);
  const prologue = src.slice(src.indexOf('\n    executeInstruction() {'), start);
  // the chain's locals: what the prologue declares must be what a handler takes
  const declared = new Set((prologue.match(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g) || [])
    .map((d) => d.split(/\s+/)[1]));
  for (const name of declared) {
    if (!LOCALS.has(name) && !PROLOGUE.has(name)) throw new Error('executeInstruction has a local ' + name);
  }
  for (const name of LOCALS) {
    if (!declared.has(name)) throw new Error('executeInstruction has no local ' + name);
  }
  branches.forEach((b) => checkBody(b.body, PROLOGUE));
  checkBody(last, PROLOGUE);
  const groups = new Map();          // a handler's branches (as text) -> its keys
  branchesByKey(branches).forEach((need, key) => {
    const id = need.join(',');
    if (!groups.has(id)) groups.set(id, { need, keys: [] });
    groups.get(id).keys.push(key);
  });
  let table = 'const __H = new Array(1024);\n';
  let n = 0;
  for (const { need, keys } of groups.values()) {
    let body = '';
    need.forEach((i, j) => {
      body += (j ? 'else ' : '') + `if (${branches[i].cond}) ${branches[i].body}\n`;
    });
    body += (need.length ? 'else ' : '') + last + '\n';
    table += `function __h${n}(opcode, opcode2, opcodePC, deltaCycles) {\n${body}return deltaCycles;\n}\n` +
      keys.map((k) => `__H[${k}] = __h${n};`).join(' ') + '\n';
    n++;
  }
  const call = 'deltaCycles = __H[opcode >> 6].call(this, opcode, opcode2, opcodePC, deltaCycles);';
  const out = src.slice(0, start) + call + src.slice(end);
  const cls = out.indexOf('\nexport class CortexM0Core');
  if (cls < 0) throw new Error('no class CortexM0Core');
  // the handlers at the module's top level: they see what the chain saw
  // (its helpers and constants), and `this` is the core they are called on
  return out.slice(0, cls) + '\n' + table + out.slice(cls);
}

/** The rebuilt executeInstruction, to put on a CortexM0Core (its other
 * methods stay rp2040js's). ``from``: a file inside the folder that holds
 * node_modules/rp2040js (glue.mjs's own URL). */
export async function fastExecute(from) {
  const require = createRequire(from);
  // the package's "require" entry is dist/cjs/index.js; the ES modules
  // glue.mjs imports are in dist/esm
  const esm = path.join(path.dirname(require.resolve('rp2040js')), '..', 'esm');
  let src = fs.readFileSync(path.join(esm, 'cortex-m0-core.js'), 'utf8');
  // its imports by absolute URL: the same module instances glue.mjs has
  src = src.replace(/from '(\.\/[^']+)'/g, (_, rel) => `from '${pathToFileURL(path.join(esm, rel)).href}'`);
  const mod = await import('data:text/javascript,' + encodeURIComponent(transform(src)));
  return mod.CortexM0Core.prototype.executeInstruction;
}
