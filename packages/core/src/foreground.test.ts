import { describe, expect, it } from 'vitest'
import { createForeground } from './foreground.js'

/** A clock and a timer the test moves by hand: nothing here waits on real time. */
function manualClock() {
  let t = 0
  const timers: { at: number; run: () => void }[] = []
  return {
    now: () => t,
    after(ms: number, run: () => void) {
      timers.push({ at: t + ms, run })
    },
    /** Moves the clock to `to`, running the timers due by then in order. */
    advance(to: number) {
      for (;;) {
        timers.sort((a, b) => a.at - b.at)
        const next = timers[0]
        if (next === undefined || next.at > to) break
        timers.shift()
        t = Math.max(t, next.at)
        next.run()
      }
      t = to
    },
    pending: () => timers.length,
  }
}

/** Records when each of `count` turns was granted. */
function turns(
  foreground: ReturnType<typeof createForeground>,
  count: number,
  clock: { now(): number },
) {
  const granted: number[] = []
  for (let i = 0; i < count; i++) {
    const turn = foreground.turn()
    if (turn === undefined) granted.push(clock.now())
    else void turn.then(() => granted.push(clock.now()))
  }
  return granted
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('createForeground', () => {
  it('lets every step go at once while no request is being served', () => {
    const clock = manualClock()
    const foreground = createForeground({ quietMs: 2, spacingMs: 10, ...clock })
    expect([foreground.turn(), foreground.turn(), foreground.turn()]).toEqual([
      undefined,
      undefined,
      undefined,
    ])
    expect(clock.pending()).toBe(0)
  })

  it('spaces steps while requests keep coming, and releases the rest once they stop', async () => {
    const clock = manualClock()
    const foreground = createForeground({ quietMs: 2, spacingMs: 10, ...clock })
    clock.advance(100)
    foreground.touch()
    const granted = turns(foreground, 4, clock)
    // The first goes at once (none went in the last 10 ms), the others wait.
    expect(granted).toEqual([100])
    // Requests every millisecond for 25 ms: one more step at 110 and one at 120.
    for (let t = 101; t <= 125; t++) {
      clock.advance(t)
      foreground.touch()
      await settle()
    }
    expect(granted).toEqual([100, 110, 120])
    // Quiet from 125: the last waiting step goes 2 ms later, not at 130.
    clock.advance(127)
    await settle()
    expect(granted).toEqual([100, 110, 120, 127])
    expect(clock.pending()).toBe(0)
  })

  it('never holds a step back with spacing 0', () => {
    const clock = manualClock()
    const foreground = createForeground({ spacingMs: 0, ...clock })
    foreground.touch()
    expect(foreground.turn()).toBeUndefined()
    expect(foreground.turn()).toBeUndefined()
  })

  it('keeps waiting steps in order behind a new one', async () => {
    const clock = manualClock()
    const foreground = createForeground({ quietMs: 2, spacingMs: 10, ...clock })
    const busyUntil = async (to: number) => {
      for (let t = clock.now() + 1; t <= to; t++) {
        clock.advance(t)
        foreground.touch()
        await settle()
      }
    }
    clock.advance(50)
    foreground.touch()
    const order: string[] = []
    expect(foreground.turn()).toBeUndefined()
    void foreground.turn()!.then(() => order.push('a'))
    await busyUntil(55)
    // A step asking later waits behind `a`.
    void foreground.turn()!.then(() => order.push('b'))
    await busyUntil(65)
    expect(order).toEqual(['a'])
    await busyUntil(75)
    expect(order).toEqual(['a', 'b'])
  })
})
