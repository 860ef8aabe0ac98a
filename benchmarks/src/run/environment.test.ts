import { describe, expect, it } from 'vitest'
import { vectorInstructions } from './environment.js'

const cpuinfo = (flags: string) =>
  `processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu sse2 ${flags}\n`

describe('vectorInstructions', () => {
  it('names the widest vector unit and whether it has VNNI', () => {
    expect(vectorInstructions(cpuinfo('avx avx2 fma'))).toBe('AVX2, no VNNI')
    expect(vectorInstructions(cpuinfo('avx2 avx512f avx512bw'))).toBe('AVX-512, no VNNI')
    expect(vectorInstructions(cpuinfo('avx2 avx512f avx512_vnni'))).toBe('AVX-512 VNNI')
    expect(vectorInstructions(cpuinfo('avx2 avx_vnni'))).toBe('AVX2, AVX-VNNI')
  })

  it('says nothing without x86 vector flags', () => {
    expect(vectorInstructions('')).toBeNull()
    expect(vectorInstructions(cpuinfo('neon asimd'))).toBeNull()
  })
})
