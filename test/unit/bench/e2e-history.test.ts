import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseOptions } from '../../../bench/e2e/options.js'
import { printHistoryTable, type Line } from '../../../bench/e2e/table.js'

describe('bench:e2e --history', () => {
  it('is empty unless given, and takes a comma list of scales once each', () => {
    expect(parseOptions([]).history).toEqual([])
    expect(parseOptions(['--history', '0,4']).history).toEqual([0, 4])
    expect(parseOptions(['--history', '4,4,0']).history).toEqual([4, 0])
  })

  it('refuses what is not a scale', () => {
    expect(() => parseOptions(['--history', '-1'])).toThrow(/--history/)
    expect(() => parseOptions(['--history', '1.5'])).toThrow(/--history/)
    expect(() => parseOptions(['--history', 'x'])).toThrow(/--history/)
  })
})

describe('bench:e2e history table', () => {
  afterEach(() => vi.restoreAllMocks())

  const line = (label: string, cpuSeconds: number): Line => ({
    label, n: 100_000, seconds: 10, startup: 1, rssMb: 100, cpuSeconds, mainThreadCpuSeconds: cpuSeconds / 2,
    clickhouseCpuSeconds: 1, kafkaCpuSeconds: 1, rows: 100_000, exactlyOnce: true, missing: 0,
  })

  it('puts each line beside itself at every history size, and this checkout beside the one before', () => {
    const printed: string[] = []
    vi.spyOn(console, 'log').mockImplementation((s: string) => void printed.push(s))
    printHistoryTable(
      [
        line('npm start, kafkajs @ aaaaaaa, history 0×', 2),
        line('npm start, kafkajs @ bbbbbbb, history 0×', 2.2),
        line('npm start, kafkajs @ aaaaaaa, history 4×', 2),
        line('npm start, kafkajs @ bbbbbbb, history 4×', 2.4),
      ],
      parseOptions(['--history', '0,4', '--only', 'kafkajs']),
    )
    const text = printed.join('\n')
    expect(text).toContain('| npm start, kafkajs @ bbbbbbb | 22.0 | 24.0 | +9.1 % |')
    expect(text).toContain('| npm start, kafkajs (aaaaaaa → bbbbbbb) | 4× | 20.0 | 24.0 | +20.0 % |')
  })
})
