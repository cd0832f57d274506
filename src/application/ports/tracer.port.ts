export interface Tracer {
  /** Runs `work` in a span linked to the producers' traces (W3C traceparent values of the events). */
  span<T>(
    name: string,
    attributes: Readonly<Record<string, string | number>>,
    work: () => Promise<T>,
    links?: readonly string[],
  ): Promise<T>
}
