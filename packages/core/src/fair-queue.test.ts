import { describe, expect, it } from 'vitest'
import { FairQueue } from './fair-queue.js'

const drain = <T>(queue: FairQueue<T>, accept?: (key: string) => boolean) => {
  const out: T[] = []
  for (let item = queue.shift(accept); item !== undefined; item = queue.shift(accept))
    out.push(item)
  return out
}

describe('FairQueue', () => {
  it('serves keys in turn, each lane in its own order', () => {
    const queue = new FairQueue<string>()
    for (let i = 0; i < 4; i++) queue.push('x', `x${i}`)
    queue.push('y', 'y0')
    queue.push('z', 'z0')
    queue.push('y', 'y1')
    expect(queue.size).toBe(7)
    expect(drain(queue)).toEqual(['x0', 'y0', 'z0', 'x1', 'y1', 'x2', 'x3'])
    expect(queue.size).toBe(0)
  })

  it('serves a key that arrives behind a long backlog after one item of it', () => {
    const queue = new FairQueue<string>()
    for (let i = 0; i < 1000; i++) queue.push('flood', `f${i}`)
    expect(queue.shift()).toBe('f0')
    queue.push('quiet', 'q0')
    expect(queue.shift()).toBe('f1')
    expect(queue.shift()).toBe('q0')
    expect(queue.sizeOf('flood')).toBe(998)
  })

  it('skips keys the caller refuses, which keep their place', () => {
    const queue = new FairQueue<string>()
    queue.push('a', 'a0')
    queue.push('b', 'b0')
    queue.push('a', 'a1')
    expect(queue.shift((key) => key !== 'a')).toBe('b0')
    expect(queue.shift((key) => key !== 'a')).toBeUndefined()
    queue.push('c', 'c0')
    expect(queue.keys()).toEqual(['a', 'c'])
    expect(drain(queue)).toEqual(['a0', 'c0', 'a1'])
  })

  it('removes matching items and forgets emptied keys', () => {
    const queue = new FairQueue<number>()
    for (let i = 0; i < 6; i++) queue.push(i % 2 === 0 ? 'even' : 'odd', i)
    expect(queue.remove((item) => item % 2 === 1)).toBe(3)
    expect(queue.keys()).toEqual(['even'])
    expect(queue.size).toBe(3)
    expect(drain(queue)).toEqual([0, 2, 4])
  })

  it('shiftIf takes the next item in turn only when it fits, else changes nothing', () => {
    const queue = new FairQueue<string>()
    queue.push('a', 'a0')
    queue.push('b', 'long-b0')
    queue.push('a', 'a1')
    const short = (item: string) => item.length <= 2
    expect(queue.shiftIf(short)).toBe('a0')
    expect(queue.shiftIf(short)).toBeUndefined() // b's turn, and b0 does not fit
    expect(queue.size).toBe(2)
    expect(drain(queue)).toEqual(['long-b0', 'a1'])
  })
})
