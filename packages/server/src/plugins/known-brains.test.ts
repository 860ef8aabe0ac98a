import { describe, expect, it } from 'vitest'
import { EngramError, type Engram } from '@engram/core'
import { createKnownBrains } from './known-brains.js'

/** An engine with a catalogue of `brains`, counting its look-ups; `deleteBrain` runs the delete hooks. */
function fakeEngine(brains: Set<string>) {
  const hooks: ((brainId: string) => void)[] = []
  let lookups = 0
  let gate: Promise<void> = Promise.resolve()
  const engram = {
    brains: {
      async require(brainId: string) {
        lookups++
        const exists = brains.has(brainId)
        await gate
        if (!exists) throw new EngramError('BRAIN_NOT_FOUND', `Brain '${brainId}' does not exist.`)
        return { id: brainId }
      },
    },
    onBrainDeleted: (hook: (brainId: string) => void) => void hooks.push(hook),
  } as unknown as Engram
  return {
    engram,
    lookups: () => lookups,
    deleteBrain(brainId: string) {
      brains.delete(brainId)
      for (const hook of hooks) hook(brainId)
    },
    hold() {
      let release!: () => void
      gate = new Promise((resolve) => (release = resolve))
      return () => {
        gate = Promise.resolve()
        release()
      }
    },
  }
}

describe('createKnownBrains', () => {
  it('asks the catalogue once per brain within the time to live, then again', async () => {
    let now = 0
    const fake = fakeEngine(new Set(['a']))
    const known = createKnownBrains(fake.engram, { ttlMs: 1000, now: () => now })
    await known.require('a')
    await known.require('a')
    expect(fake.lookups()).toBe(1)
    now = 1000
    await known.require('a')
    expect(fake.lookups()).toBe(2)
  })

  it('never remembers a missing brain', async () => {
    const fake = fakeEngine(new Set())
    const known = createKnownBrains(fake.engram)
    await expect(known.require('b')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
    await expect(known.require('b')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
    expect(fake.lookups()).toBe(2)
  })

  it('sees a deletion in this process at once', async () => {
    const fake = fakeEngine(new Set(['a']))
    const known = createKnownBrains(fake.engram)
    await known.require('a')
    fake.deleteBrain('a')
    await expect(known.require('a')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
  })

  it('does not remember a look-up that a deletion overtook', async () => {
    const fake = fakeEngine(new Set(['a']))
    const known = createKnownBrains(fake.engram)
    const release = fake.hold()
    const inFlight = known.require('a')
    fake.deleteBrain('a')
    release()
    await inFlight
    await expect(known.require('a')).rejects.toMatchObject({ code: 'BRAIN_NOT_FOUND' })
  })

  it('keeps at most `max` brains, dropping the oldest', async () => {
    const fake = fakeEngine(new Set(['a', 'b', 'c']))
    const known = createKnownBrains(fake.engram, { max: 2 })
    for (const id of ['a', 'b', 'c']) await known.require(id)
    expect(fake.lookups()).toBe(3)
    await known.require('c')
    await known.require('b')
    expect(fake.lookups()).toBe(3)
    await known.require('a')
    expect(fake.lookups()).toBe(4)
  })
})
