/** What the guard needs of `process` (a test passes an EventEmitter with an exitCode). */
export interface GuardedProcess {
  on(event: 'exit', listener: (code: number) => void): unknown
  exitCode?: number | string | null | undefined
}

/**
 * Exit 0 belongs to a stop that was asked for (SIGTERM, SIGINT): any other exit 0 of the service —
 * a library calling process.exit(0), Node's cluster ending a worker whose primary is gone — is said
 * on stderr and becomes exit 1, so that a supervisor restarts it and nobody takes a silent outage
 * for a clean stop. (An event loop left with nothing to run ends the entry's top-level await with
 * 13.) On stderr, written at once: pino flushes its buffered lines in an exit listener of its own,
 * which runs before this one.
 */
export const guardExit = (proc: GuardedProcess, stopAsked: () => boolean, say: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): void => {
  proc.on('exit', (code) => {
    // another code has its reason said already (a refused start, Node's stack of an uncaught error)
    if (code !== 0 || stopAsked()) return
    say('dev-stats ingest: exiting with code 0 without a stop request (SIGTERM or SIGINT): exit 1 instead')
    proc.exitCode = 1
  })
}
