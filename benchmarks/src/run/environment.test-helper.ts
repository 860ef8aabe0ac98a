import type { Environment } from './environment.js'

/** A fixed environment for report tests (what `captureEnvironment` records on a run). */
export const TEST_ENVIRONMENT: Environment = {
  cpu: 'test CPU',
  cores: 2,
  memoryGb: 8,
  node: 'v20.0.0',
  os: 'linux',
  date: '2026-01-01T00:00:00.000Z',
  load1: 0.5,
}
