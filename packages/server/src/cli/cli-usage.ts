/** `engram --help`. Kept apart from every command so that printing it loads nothing else. */
export const USAGE = `Usage: engram <command> [options]

Commands:
  serve                  run the REST server (configuration from environment variables; see README)
  ingest <files...>      send files to a running server (POST /ingest/file, one task each) and wait
                         for them with a progress bar
      --meta '<json>'    meta_keys stored on every passage of these files
      --no-wait          print the task ids and return at once
  search <query>         search a running server (GET /retrieve/search)
      -k <n>             number of hits (default 10)
      --channels <csv>   e.g. passages,entities,events
      --json             print the whole response

Client options (ingest, search):
  --url <url>            server root (default ENGRAM_URL, else http://HOST:PORT/BASE_PATH)
  --token <token>        system or brain token (default ENGRAM_TOKEN, else SERVICEPAT_TOKEN)
  --brain <id>           brain to use (X-Brain-ID)
`

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
