/**
 * Runs `work` every `intervalMs`, the first time one interval after `start` (0: never), one run at
 * a time: a run asked for while one is out joins it. A failed scheduled run is left to the next
 * interval (`work` reports its own failures).
 */
export class PeriodicPass<T> {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<T> | undefined

  constructor(
    private readonly work: () => Promise<T>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer || this.intervalMs <= 0) return
    this.timer = setInterval(() => void this.run().catch(() => undefined), this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  run(): Promise<T> {
    this.running ??= this.work().finally(() => (this.running = undefined))
    return this.running
  }
}
