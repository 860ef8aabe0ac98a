import { describe, expect, it } from 'vitest'
import { useLiteEmbedder } from './use-lite-embedder.js'
import { availableUseLiteRuntime } from './use-lite-runtime.js'

describe('availableUseLiteRuntime', () => {
  it('picks ONNX Runtime when its optional peer is installed, as in this repository', () => {
    expect(availableUseLiteRuntime()).toBe('onnx')
  })

  it('is what an embedder without a runtime option runs on, and an explicit one wins', async () => {
    const auto = useLiteEmbedder({ workers: 1 })
    const tfjs = useLiteEmbedder({ workers: 1, runtime: 'tfjs' })
    expect(auto.runtime).toBe('onnx')
    expect(tfjs.runtime).toBe('tfjs')
    await Promise.all([auto.close(), tfjs.close()])
  })

  it('runs int8 products by default on ONNX Runtime and the float model on TF.js, which has no int8', async () => {
    const onnx = useLiteEmbedder({ workers: 1 })
    const fp32 = useLiteEmbedder({ workers: 1, precision: 'fp32' })
    const tfjs = useLiteEmbedder({ workers: 1, runtime: 'tfjs' })
    expect([onnx.precision, fp32.precision, tfjs.precision]).toEqual(['int8', 'fp32', 'fp32'])
    await Promise.all([onnx.close(), fp32.close(), tfjs.close()])
    expect(() => useLiteEmbedder({ runtime: 'tfjs', precision: 'int8' })).toThrow(
      'runs the float model only',
    )
  })
})
