// How a command fails: one line on stderr and an exit status, never a stack trace.

/** A mistake in how the command was called: exit status 2. */
export class UsageError extends Error {}

/** The command was called right but cannot do its work (busy port, locked data dir, unreadable file): exit status 1. */
export class CliFailure extends Error {}

const firstLine = (e: unknown): string => {
  const text = e instanceof Error ? e.message : String(e)
  return (
    text
      .split("\n")
      .find((l) => l.trim().length > 0)
      ?.trim() ?? "failed"
  )
}

/** Prints the failure as one line and sets the exit status; unexpected errors show their stack only with CUSTODY_SIM_DEBUG=1. */
export const report = (e: unknown, command: string): void => {
  if (process.env.CUSTODY_SIM_DEBUG === "1" && e instanceof Error) process.stderr.write(`${e.stack}\n`)
  if (e instanceof UsageError) {
    process.stderr.write(`error: ${firstLine(e)} (see custody-sim ${command} --help)\n`)
    process.exitCode = 2
  } else {
    process.stderr.write(`error: ${firstLine(e)}\n`)
    process.exitCode = 1
  }
}
