/** An invalid setting: names it, so that start-up can say which one to fix (exit 2). */
export class ConfigError extends Error {
  constructor(readonly setting: string, detail: string) {
    super(`invalid configuration: ${setting} ${detail}`)
    this.name = 'ConfigError'
  }
}
