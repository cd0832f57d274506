// `dev-stats-ingest start` (npm start): the standalone service, one host of the library's public
// entry. One ingest process by default; with --workers N, a primary serving HTTP for N of them.
import { flagCommand } from '../cli-command.js'
import { runIngestProcess } from './ingest-process.js'
import { runPrimary } from './workers/primary.js'
import { workerLink } from './workers/worker-link.js'
import { MAX_WORKERS, workersSetting } from './workers/workers-setting.js'

const HELP = `dev-stats-ingest start [--workers N|auto]

Runs every enabled consumer against the configured broker and store, serves /metrics, /health
and (with a DEV_STATS_READ_API_* key) the read API on DEV_STATS_HTTP_HOST:DEV_STATS_HTTP_PORT,
until SIGTERM or SIGINT: then finishes the batches in flight, commits what was inserted, leaves
the consumer groups and exits 0 — or, if that takes longer than DEV_STATS_STOP_TIMEOUT_SECONDS
(default 50: a wait the stop path does not bound itself), exits 1 without committing anything more.
Logs are JSON lines on stdout (pino).

  --workers N   run N ingest processes (1-${MAX_WORKERS}; default DEV_STATS_WORKERS, else 1), each a
                member of every consumer group, behind one HTTP endpoint: /metrics carries every
                worker's series labelled worker="1".."N", /health/ready is 200 when every worker
                is ready, the read API is served by the primary. A worker that dies is restarted
                (1 s, doubling to 30 s while it keeps dying within a minute), also when its
                restart fails at start-up; one that fails its first start (exit 1) or on a
                setting (exit 2) stops them all with its exit code. Worker 1 alone runs the
                periodic passes (reconciliation, link retention, lag reads) for all of them.
                SIGTERM/SIGINT stop every worker; exit 0 when each stopped cleanly. Needs Kafka
                and DEV_STATS_STORE=clickhouse. auto: one a CPU, no more than the most partitions
                of a topic the consumers read. Log lines of a worker carry "worker": its number.

A network fault on the way to the broker or the store at start-up (a reset, no answer, an answer
cut short) is tried again, 1 s doubling to 15 s, for DEV_STATS_STARTUP_TIMEOUT_SECONDS (default
60; 0: never).

Settings: the DEV_STATS_* environment variables (docs/configuration.md); dev-stats-ingest check
tries them without starting anything.

Exit codes: 0 stopped on a signal; 1 the stop ran past its deadline, or a server unreachable,
the store lacking a migration, topics missing or the HTTP port taken (the reason on stderr);
2 an invalid setting or the chosen optional client not installed.`

export const run = flagCommand({
  name: 'start',
  help: HELP,
  options: { workers: { type: 'string' } },
  run: async (values, env) => {
    // a worker runs this command again (the cluster module replays the primary's command line)
    const worker = workerLink(env)
    if (worker) return runIngestProcess(env, worker)
    const setting = workersSetting(values.workers, env)
    return setting.workers === 1 ? runIngestProcess(env) : runPrimary(setting, env)
  },
})
