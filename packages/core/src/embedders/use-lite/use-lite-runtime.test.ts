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
})
