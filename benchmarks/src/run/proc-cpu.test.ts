import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { commandCpuByPid, cpuDeltaMs } from './proc-cpu.js'

describe('cpuDeltaMs', () => {
  it('counts new processes from zero and leaves out those that exited', () => {
    const before = new Map([
      [10, 500],
      [11, 200],
    ])
    const after = new Map([
      [10, 800],
      [12, 50],
    ])
    expect(cpuDeltaMs(before, after)).toBe(350)
    expect(cpuDeltaMs(after, after)).toBe(0)
  })
})

describe.skipIf(!existsSync('/proc/self/comm'))('commandCpuByPid (needs Linux procfs)', () => {
  it('finds this process by its command name', () => {
    const comm = readFileSync('/proc/self/comm', 'utf8').trim()
    const cpu = commandCpuByPid(comm)
    expect(cpu.get(process.pid)).toBeGreaterThanOrEqual(0)
    expect(commandCpuByPid('no-such-command-name').size).toBe(0)
  })
})
