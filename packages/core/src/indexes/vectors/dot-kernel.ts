/**
 * Row-by-row dot products of a float32 matrix with one float32 query, in WebAssembly 128-bit SIMD
 * (the fixed-width SIMD proposal, standard since WebAssembly 2.0; Node 16.4+). Each float32 pair is
 * widened to float64 before it is multiplied (a float32×float32 product is exact in float64), and the
 * sums run in float64 on four lanes, so a score differs from a plain JavaScript loop only by the order
 * of float64 additions (~1e-16), never by float32 rounding. The module is assembled here, byte by byte,
 * because the build has no WebAssembly toolchain; the listing below is its text form.
 *
 *   (func (export "dots") (param $p i32) (param $q i32) (param $dBytes i32) (param $end i32) (param $out i32)
 *     (local $i i32) (local $a v128) (local $b v128)
 *     (block (br_if 0 (i32.ge_u $p $end))
 *       (loop $rows
 *         $a = $b = f64x2(0, 0); $i = 0
 *         (loop $cols
 *           $a += promote_low(load64_zero($p + $i))     * promote_low(load64_zero($q + $i))
 *           $b += promote_low(load64_zero($p + $i + 8)) * promote_low(load64_zero($q + $i + 8))
 *           (br_if $cols (i32.lt_u ($i += 16) $dBytes)))
 *         $a = $a + $b; f64.store($out, lane0($a) + lane1($a)); $out += 8
 *         (br_if $rows (i32.lt_u ($p += $dBytes) $end)))))
 *
 * `dBytes` must be a positive multiple of 16 (a dimension divisible by 4).
 */
/** The part of the WebAssembly JS API used here (core's `lib` has no DOM, its @types/node no WebAssembly). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> }
}
/** Node's global `WebAssembly`. */
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

export type DotsFn = (p: number, q: number, dBytes: number, end: number, out: number) => void

const LOCAL_GET = 0x20
const LOCAL_SET = 0x21
const LOCAL_TEE = 0x22
const I32_CONST = 0x41
const I32_ADD = 0x6a
const I32_LT_U = 0x49
const I32_GE_U = 0x4f
const BR_IF = 0x0d
const BLOCK = 0x02
const LOOP = 0x03
const VOID = 0x40
const END = 0x0b
const F64_ADD = 0xa0
const F64_STORE = 0x39
const SIMD = 0xfd
const V128_CONST = [SIMD, 0x0c]
const V128_LOAD64_ZERO = [SIMD, 0x5d]
const F64X2_PROMOTE_LOW_F32X4 = [SIMD, 0x5f]
const F64X2_EXTRACT_LANE = [SIMD, 0x21]
const F64X2_ADD = [SIMD, 0xf0, 0x01]
const F64X2_MUL = [SIMD, 0xf2, 0x01]
const [P, Q, D_BYTES, END_AT, OUT, I, A, B] = [0, 1, 2, 3, 4, 5, 6, 7]

/** `acc += promote(load64_zero(p + i + offset)) * promote(load64_zero(q + i + offset))` */
// prettier-ignore
const accumulate = (acc: number, offset: number) => [
  LOCAL_GET, acc,
  LOCAL_GET, P, LOCAL_GET, I, I32_ADD, ...V128_LOAD64_ZERO, 3, offset, ...F64X2_PROMOTE_LOW_F32X4,
  LOCAL_GET, Q, LOCAL_GET, I, I32_ADD, ...V128_LOAD64_ZERO, 3, offset, ...F64X2_PROMOTE_LOW_F32X4,
  ...F64X2_MUL, ...F64X2_ADD, LOCAL_SET, acc,
]

// prettier-ignore
const BODY = [
  2, 1, 0x7f, 2, 0x7b, // locals: one i32 ($i), two v128 ($a, $b)
  BLOCK, VOID,
  LOCAL_GET, P, LOCAL_GET, END_AT, I32_GE_U, BR_IF, 0,
  LOOP, VOID,
  ...V128_CONST, ...new Array<number>(16).fill(0), LOCAL_TEE, A, LOCAL_SET, B,
  I32_CONST, 0, LOCAL_SET, I,
  LOOP, VOID,
  ...accumulate(A, 0),
  ...accumulate(B, 8),
  LOCAL_GET, I, I32_CONST, 16, I32_ADD, LOCAL_TEE, I, LOCAL_GET, D_BYTES, I32_LT_U, BR_IF, 0,
  END,
  LOCAL_GET, OUT,
  LOCAL_GET, A, LOCAL_GET, B, ...F64X2_ADD, LOCAL_TEE, A, ...F64X2_EXTRACT_LANE, 0,
  LOCAL_GET, A, ...F64X2_EXTRACT_LANE, 1, F64_ADD,
  F64_STORE, 3, 0,
  LOCAL_GET, OUT, I32_CONST, 8, I32_ADD, LOCAL_SET, OUT,
  LOCAL_GET, P, LOCAL_GET, D_BYTES, I32_ADD, LOCAL_TEE, P, LOCAL_GET, END_AT, I32_LT_U, BR_IF, 0,
  END,
  END,
  END,
]

/** Unsigned LEB128, for section and body sizes. */
function leb(n: number): number[] {
  const out: number[] = []
  do {
    const byte = n & 0x7f
    n >>>= 7
    out.push(n === 0 ? byte : byte | 0x80)
  } while (n !== 0)
  return out
}

const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content]
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))]

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]), // type: (i32 ×5) -> ()
  ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]), // import memory, min 0
  ...section(3, [1, 0]), // one function of type 0
  ...section(7, [1, ...name('dots'), 0x00, 0]), // export it as "dots"
  ...section(10, [1, ...leb(BODY.length), ...BODY]),
])

const compiled = new wasm.Module(MODULE)

/** The `dots` kernel bound to `memory`, which holds the matrix, the query and the output scores. */
export function dotKernel(memory: WasmMemory): DotsFn {
  const instance = new wasm.Instance(compiled, { env: { memory } })
  return instance.exports.dots as DotsFn
}
