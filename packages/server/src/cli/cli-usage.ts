/** `engram --help`. Kept apart from every command so that printing it loads nothing else. */
export const USAGE = `Usage: engram <command> [options]

Commands:
  serve                  run the REST server (configuration from environment variables; see README)
  ingest <files...>      send files to a running server (POST /ingest/file, one task each) and wait
                         for them with a progress bar
      --meta '<json>'    meta_keys stored on every passage of these files
      --source-id <id>   the source of the one file given (default: each file's path as given, so
                         ingesting the same path again replaces that source instead of adding a copy)
      --no-wait          print the task ids and return at once
  search <query>         search a running server (GET /retrieve/search)
      -k <n>             number of hits (default 10)
      --channels <csv>   e.g. passages,entities,events
      --json             print the whole response
  sources                list the sources of a brain, most recently updated first (GET /sources)
      --query <text>     only ids, titles or file names containing the text
      --limit <n>        number of sources (default 100, at most 1000)
      --json             print the whole response
  forget <source_id>     forget a source and everything only it supported (DELETE /sources/{id})
      --wait             wait for the forget to finish and print what it removed

Client options (ingest, search, sources, forget):
  --url <url>            server root (default ENGRAM_URL, else http://HOST:PORT/BASE_PATH)
  --token <token>        system or brain token (default ENGRAM_TOKEN, else SERVICEPAT_TOKEN)
  --brain <id>           brain to use (X-Brain-ID)
`

/** A command line the CLI cannot run: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
