import { ConfigError } from './config.js'

/**
 * Imports an optional plugin package (a peer dependency of @engram/server that is installed only by
 * those who configure it: `EMBEDDER=transformers`, `EXTRACTOR=llm`). When it is not installed the
 * server refuses to start with the command that installs it, instead of a module-resolution stack.
 */
export async function importOptionalPackage<T>(
  load: () => Promise<T>,
  name: string,
  setting: string,
): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const code = (error as { code?: unknown }).code
    if (
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      String((error as Error).message).includes(`'${name}'`)
    )
      throw new ConfigError(
        `${setting} needs the optional package ${name}, which is not installed. Install it beside @engram/server: npm install ${name}`,
        { cause: error },
      )
    throw error
  }
}
