import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { guardExit, type GuardedProcess } from '../../../src/cli/start/exit-guard.js'

const fakeProcess = () => Object.assign(new EventEmitter(), { exitCode: undefined as GuardedProcess['exitCode'] })

describe('guardExit (issue 66)', () => {
  it('turns an exit 0 nobody asked for into exit 1 and says so', () => {
    const proc = fakeProcess()
    const said: string[] = []
    guardExit(proc, () => false, (l) => said.push(l))
    proc.emit('exit', 0)
    expect(proc.exitCode).toBe(1)
    expect(said).toEqual(['dev-stats ingest: exiting with code 0 without a stop request (SIGTERM or SIGINT): exit 1 instead'])
  })

  it('leaves another code alone: its reason is said already', () => {
    const proc = fakeProcess()
    const said: string[] = []
    guardExit(proc, () => false, (l) => said.push(l))
    proc.emit('exit', 13)
    expect(proc.exitCode).toBeUndefined()
    expect(said).toEqual([])
  })

  it('leaves the exit of a stop that was asked for alone', () => {
    const proc = fakeProcess()
    const said: string[] = []
    guardExit(proc, () => true, (l) => said.push(l))
    proc.emit('exit', 0)
    expect(proc.exitCode).toBeUndefined()
    expect(said).toEqual([])
  })
})
