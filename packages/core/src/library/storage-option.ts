import { EngramError } from '../errors.js'

/**
 * The one string option of a storage factory (`sqliteStorage({ dir })`,
 * `postgresStorage({ connectionString })`), checked as `createEngram` checks its options: missing,
 * blank or not a string, or any other key beside it (a typo), is a VALIDATION_ERROR naming it.
 */
export function storageOption(
  factory: string,
  options: unknown,
  key: string,
  hint: string,
): string {
  const given = options !== null && typeof options === 'object' ? options : {}
  const extra = Object.keys(given).filter((k) => k !== key)
  const value = (given as Record<string, unknown>)[key]
  const problem =
    extra.length > 0
      ? { loc: extra[0]!, msg: `unknown option '${extra[0]}'; it takes { ${key} }` }
      : typeof value !== 'string' || value.trim() === ''
        ? { loc: key, msg: `\`${key}\` must be ${hint}` }
        : null
  if (problem === null) return value as string
  throw new EngramError('VALIDATION_ERROR', `${factory}: ${problem.msg}.`, {
    status: 422,
    detail: [{ loc: ['options', problem.loc], msg: problem.msg, type: 'value_error' }],
  })
}
