// The benchmark scripts' flags: node's own parser (util.parseArgs) refuses a mistyped or unknown flag; a count is
// checked here once, so that `--events 2e5x` is one line saying so rather than a NaN deep in a run.

/** The value of `--<name>` as a positive integer; anything else ends the script with one line and exit code 2. */
export const count = (name: string, value: string | undefined): number => {
  const n = Number(value)
  if (value === undefined || value.trim() === "" || !Number.isSafeInteger(n) || n <= 0) {
    process.stderr.write(`--${name} takes a positive integer, not ${JSON.stringify(value ?? "")}\n`)
    process.exit(2)
  }
  return n
}
