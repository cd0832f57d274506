/** How close the store is to refusing inserts for too many parts. */
export interface StorePressure {
  /** The most active parts any partition of the database's tables holds now. */
  activePartsPeak(): Promise<number>
}
