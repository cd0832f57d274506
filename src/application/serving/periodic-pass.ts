/**
 * A pass run every `intervalMs`, the first time one interval after `start` (0: never), one at a
 * time: a pass asked for while one is out joins it. A failed scheduled pass is left to the next
 * interval (`runPass` reports its own failures).
 */
export abstract class PeriodicPass<T> {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<T> | undefined

  constructor(protected readonly intervalMs: number) {}

  /** What one pass does. */
  protected abstract runPass(): Promise<T>

  start(): void {
    if (this.timer || this.intervalMs <= 0) return
    this.timer = setInterval(() => void this.pass().catch(() => undefined), this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** One pass now (or the one still running). */
  pass(): Promise<T> {
    this.running ??= this.runPass().finally(() => (this.running = undefined))
    return this.running
  }
}
