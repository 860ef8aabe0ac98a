import { z } from 'zod'

/**
 * A timestamp the server writes (ISO 8601 UTC, `2024-03-08T00:00:00.000Z`), documented as
 * `format: date-time` (CONTRACT.md section 1). Response schemas only describe: they never validate.
 */
export const dateTimeWire = z.string().meta({ format: 'date-time' })
