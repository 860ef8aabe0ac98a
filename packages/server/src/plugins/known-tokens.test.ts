import { describe, expect, it } from 'vitest'
import type { Engram, Principal } from '@engram/core'
import { createKnownTokens } from './known-tokens.js'

/** An engine whose valid tokens are `tokens`, counting its checks; `deleteBrain` runs the delete hooks. */
function fakeEngine(tokens: Map<string, Principal>) {
  const hooks: ((brainId: string) => void)[] = []
  let checks = 0
  let gate: Promise<void> = Promise.resolve()
  const engram = {
    brains: {
      async authenticate(token: string) {
        checks++
        const principal = tokens.get(token) ?? null
        await gate
        return principal
      },
    },
    onBrainDeleted: (hook: (brainId: string) => void) => void hooks.push(hook),
  } as unknown as Engram
  return {
    engram,
    checks: () => checks,
    deleteBrain(brainId: string) {
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

const alpha: Principal = { kind: 'brain', brainId: 'alpha' }

describe('createKnownTokens', () => {
  it('checks a valid token once within the time to live, then again', async () => {
    let now = 0
    const fake = fakeEngine(new Map([['t1', alpha]]))
    const known = createKnownTokens(fake.engram, { ttlMs: 1000, now: () => now })
    expect(await known.authenticate('t1')).toEqual(alpha)
    expect(await known.authenticate('t1')).toEqual(alpha)
    expect(fake.checks()).toBe(1)
    now = 1000
    await known.authenticate('t1')
    expect(fake.checks()).toBe(2)
  })

  it('never remembers a token that failed', async () => {
    const fake = fakeEngine(new Map())
    const known = createKnownTokens(fake.engram)
    expect(await known.authenticate('guess')).toBeNull()
    expect(await known.authenticate('guess')).toBeNull()
    expect(fake.checks()).toBe(2)
  })

  it('forgets every token on a rotation or a deletion, and a check that one overtook', async () => {
    const tokens = new Map([['t1', alpha]])
    const fake = fakeEngine(tokens)
    const known = createKnownTokens(fake.engram)
    await known.authenticate('t1')
    tokens.delete('t1')
    known.forgetAll()
    expect(await known.authenticate('t1')).toBeNull()

    tokens.set('t2', alpha)
    await known.authenticate('t2')
    tokens.delete('t2')
    fake.deleteBrain('alpha')
    expect(await known.authenticate('t2')).toBeNull()

    tokens.set('t3', alpha)
    const release = fake.hold()
    const inFlight = known.authenticate('t3')
    tokens.delete('t3')
    known.forgetAll()
    release()
    expect(await inFlight).toEqual(alpha)
    expect(await known.authenticate('t3')).toBeNull()
  })

  it('keeps at most `max` tokens, dropping the oldest', async () => {
    const fake = fakeEngine(new Map(['a', 'b', 'c'].map((t) => [t, alpha])))
    const known = createKnownTokens(fake.engram, { max: 2 })
    for (const t of ['a', 'b', 'c']) await known.authenticate(t)
    await known.authenticate('c')
    await known.authenticate('b')
    expect(fake.checks()).toBe(3)
    await known.authenticate('a')
    expect(fake.checks()).toBe(4)
  })
})
