import { toStoreError } from './clickhouse-error.translator.js'

/** One caller's body and the promise it waits on. */
interface Member {
  readonly body: string | Uint8Array
  readonly resolve: () => void
  readonly reject: (e: unknown) => void
}

interface Group {
  readonly members: Member[]
  bytes: number
}

interface TableQueue {
  running: boolean
  readonly waiting: Group[]
  scheduled: boolean
}

/** Sends one insert of `chunks` (JSONEachRow bodies, one after the other) into `table`. */
export type SendInsert = (table: string, chunks: readonly (string | Uint8Array)[]) => Promise<void>

/**
 * Group commit of inserts into one table: the bodies that callers (the consumers of one process)
 * hand in while an insert into that table is running, or within the same turn of the event loop,
 * go as one insert once it returns. On 18.16 an insert costs its parts more than its rows
 * (docs/performance.md), and consumers that flush on the same clock (flush-due.ts) insert into
 * the same tables at once: eight funnel stages make one part, not eight. Every caller still waits
 * for its own rows: its promise settles when the insert carrying them has returned. A group whose
 * rows the server refuses is sent again member by member, so each caller gets the outcome of its
 * own rows (one refused row does not fail the others' batches). Any other failure (a timeout, a
 * server down) fails every member at once: each engine retries its own batch with its own backoff,
 * instead of this queue sending body after body into an outage, a request timeout each, and again
 * an insert that may have been applied.
 */
export class InsertGroups {
  private readonly tables = new Map<string, TableQueue>()

  constructor(
    private readonly send: SendInsert,
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  insert(table: string, body: string | Uint8Array): Promise<void> {
    const queue = this.queueOf(table)
    return new Promise<void>((resolve, reject) => {
      const last = queue.waiting[queue.waiting.length - 1]
      const member = { body, resolve, reject }
      if (last !== undefined && last.bytes + body.length <= this.maxBytes) {
        last.members.push(member)
        last.bytes += body.length
      } else queue.waiting.push({ members: [member], bytes: body.length })
      this.schedule(table, queue)
    })
  }

  private queueOf(table: string): TableQueue {
    let queue = this.tables.get(table)
    if (!queue) this.tables.set(table, (queue = { running: false, waiting: [], scheduled: false }))
    return queue
  }

  /** Starts the next group after the current turn, so that callers flushing on the same tick share it. */
  private schedule(table: string, queue: TableQueue): void {
    if (queue.scheduled || queue.running) return
    queue.scheduled = true
    setImmediate(() => {
      queue.scheduled = false
      const group = queue.waiting.shift()
      if (!group) return
      queue.running = true
      void this.run(table, group).finally(() => {
        queue.running = false
        if (queue.waiting.length > 0) this.schedule(table, queue)
        else this.tables.delete(table)
      })
    })
  }

  private async run(table: string, { members }: Group): Promise<void> {
    try {
      await this.send(table, members.map((m) => m.body))
      for (const m of members) m.resolve()
    } catch (e) {
      if (members.length === 1 || toStoreError(e).retriable) return rejectAll(members, e)
      for (const [i, m] of members.entries()) {
        try {
          await this.send(table, [m.body])
          m.resolve()
        } catch (failure) {
          if (toStoreError(failure).retriable) return rejectAll(members.slice(i), failure)
          m.reject(failure)
        }
      }
    }
  }
}

const rejectAll = (members: readonly Member[], e: unknown): void => {
  for (const m of members) m.reject(e)
}
