import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

export interface ProcessUsage {
  /** Peak resident set (VmHWM) in MB: of every process of the tree, summed (one process but with --workers). */
  readonly peakMb: number
  /** User + system CPU time in seconds of the process and its descendants: what it cost, whatever else ran. */
  readonly cpuSeconds: number
  /**
   * The process's main thread alone (JavaScript, GC unless parallel, a native client's callbacks):
   * the rest of cpuSeconds is other threads (libuv's pool, librdkafka's own threads) and children.
   */
  readonly mainThreadCpuSeconds: number
}

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

interface Stat {
  readonly pid: number
  readonly ppid: number
  /** utime + stime of every thread, in seconds. */
  readonly cpuSeconds: number
  /** stime alone: in the kernel on the process's behalf (files, sockets, memory). */
  readonly systemSeconds: number
}

/** /proc/<pid>/stat (or a thread's, /proc/<pid>/task/<tid>/stat); undefined once it is gone. */
const statOf = (pid: number, path = `/proc/${pid}/stat`): Stat | undefined => {
  try {
    const stat = readFileSync(path, 'utf8')
    // Fields after "(comm) ": state is the 3rd of stat, ppid the 4th, utime and stime the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const s = { pid, ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, systemSeconds: Number(fields[12]) / TICKS_PER_SECOND }
    // A process exiting while we read may hand back a short or empty line.
    return Number.isFinite(s.cpuSeconds) && Number.isFinite(s.ppid) ? s : undefined
  } catch {
    return undefined
  }
}

const allPids = (): number[] => readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number)

/** `pid` and every live descendant (a child still running has not been added to the parent's cutime). */
const treeOf = (pid: number): Stat[] => {
  const root = statOf(pid)
  if (!root) return []
  const children = new Map<number, Stat[]>()
  for (const p of allPids()) {
    const s = p === pid ? undefined : statOf(p)
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s])
  }
  const tree: Stat[] = []
  const walk = (s: Stat) => {
    tree.push(s)
    for (const c of children.get(s.pid) ?? []) walk(c)
  }
  walk(root)
  return tree
}

/** CPU seconds of `pid` and of every live descendant (`start --workers N`: the primary and its workers). */
export const treeCpuSeconds = (pid: number): number | undefined => {
  const tree = treeOf(pid)
  return tree.length === 0 ? undefined : tree.reduce((n, s) => n + s.cpuSeconds, 0)
}

/** Of those, the seconds spent in the kernel. */
export const treeSystemSeconds = (pid: number): number | undefined => {
  const tree = treeOf(pid)
  return tree.length === 0 ? undefined : tree.reduce((n, s) => n + s.systemSeconds, 0)
}

/** Peak resident set (VmHWM) of a process in kB; 0 once it is gone. */
const peakKb = (pid: number): number => {
  try {
    return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  } catch {
    return 0
  }
}

/** Samples a process tree's /proc until stop(); the last sample wins (the process may be gone by then). */
export const processUsage = (pid: number) => {
  let usage: ProcessUsage = { peakMb: 0, cpuSeconds: 0, mainThreadCpuSeconds: 0 }
  const sample = () => {
    const tree = treeOf(pid)
    const mainThread = statOf(pid, `/proc/${pid}/task/${pid}/stat`)
    if (tree.length === 0 || !mainThread) return // the process is gone: keep the last sample
    // each process's own peak, summed: with workers, what the primary and every worker held
    const kb = tree.reduce((n, s) => n + peakKb(s.pid), 0)
    const cpuSeconds = tree.reduce((n, s) => n + s.cpuSeconds, 0)
    usage = { peakMb: Math.max(usage.peakMb, kb / 1024), cpuSeconds, mainThreadCpuSeconds: mainThread.cpuSeconds }
  }
  const timer = setInterval(sample, 200)
  return {
    stop: (): ProcessUsage => {
      sample()
      clearInterval(timer)
      return usage
    },
  }
}

/** Socket inodes listening on 127.0.0.1/0.0.0.0/:: `port` (/proc/net/tcp and tcp6, state 0A = LISTEN). */
const listeningInodes = (port: number): Set<string> => {
  const inodes = new Set<string>()
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0')
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A' && f[9]) inodes.add(f[9])
    }
  }
  return inodes
}

/**
 * The pid of the process listening on `port`, found through /proc (the server's pid file lives
 * in whichever checkout started it: scripts/clickhouse-server.sh and kafka-broker.sh), or
 * undefined when none is visible to us.
 */
export const listenerPid = (port: number): number | undefined => {
  const inodes = listeningInodes(port)
  if (inodes.size === 0) return undefined
  for (const pid of allPids()) {
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
        if (m && inodes.has(m[1] as string)) return pid
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return undefined
}
