#!/usr/bin/env node
// Idempotently creates the topics of a `<name> <partitions>` list (scripts/kafka-topics.txt)
// in ONE process with the kafkajs admin client: existing topics are left alone (or grown when
// they have fewer partitions than listed), missing ones are created in one request.
//
//   node scripts/create-topics.mjs [--bootstrap 127.0.0.1:19092] [--file scripts/kafka-topics.txt]
//
// Used by `scripts/kafka-broker.sh create-topics` when node_modules/kafkajs is installed.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(resolve(here, '..', 'package.json'))
const { Kafka, logLevel } = require('kafkajs')

function parseArgs(argv) {
  const out = {
    bootstrap: `127.0.0.1:${process.env.KAFKA_PORT ?? '19092'}`,
    file: resolve(here, 'kafka-topics.txt'),
  }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--bootstrap') out.bootstrap = argv[++i]
    else if (a === '--file') out.file = resolve(argv[++i])
    else throw new Error(`unknown argument ${a}`)
  }
  return out
}

function parseTopics(text, file) {
  const topics = new Map()
  text.split('\n').forEach((raw, idx) => {
    const line = raw.replace(/#.*$/, '').trim()
    if (line === '') return
    const m = /^([A-Za-z0-9._-]{1,249})\s+(\d+)$/.exec(line)
    if (!m) throw new Error(`${file}:${idx + 1}: expected "<topic> <partitions>", got "${raw}"`)
    const partitions = Number(m[2])
    if (partitions < 1) throw new Error(`${file}:${idx + 1}: partitions must be >= 1`)
    if (topics.has(m[1])) throw new Error(`${file}:${idx + 1}: duplicate topic ${m[1]}`)
    topics.set(m[1], partitions)
  })
  return topics
}

async function main() {
  const { bootstrap, file } = parseArgs(process.argv.slice(2))
  const wanted = parseTopics(readFileSync(file, 'utf8'), file)
  const kafka = new Kafka({
    clientId: 'dev-stats-create-topics',
    brokers: [bootstrap],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 3000 },
  })
  const admin = kafka.admin()
  await admin.connect()
  try {
    const existing = new Set(await admin.listTopics())
    const missing = [...wanted].filter(([name]) => !existing.has(name))
    if (missing.length > 0) {
      // Returns false when another caller created some of them concurrently; verified below.
      await admin.createTopics({
        topics: missing.map(([topic, numPartitions]) => ({ topic, numPartitions, replicationFactor: 1 })),
        waitForLeaders: true,
        timeout: 30000,
      })
    }

    const present = [...wanted.keys()].filter((t) => existing.has(t))
    const grow = []
    if (present.length > 0) {
      const { topics } = await admin.fetchTopicMetadata({ topics: present })
      for (const t of topics) {
        const want = wanted.get(t.name)
        if (t.partitions.length < want) grow.push({ topic: t.name, count: want })
        else if (t.partitions.length > want)
          console.warn(`[create-topics] ${t.name} has ${t.partitions.length} partitions (> ${want} listed); left as is`)
      }
      if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow, validateOnly: false })
    }

    // Verify: every topic exists with at least the listed partitions, each with a leader.
    const deadline = Date.now() + 30000
    for (;;) {
      let problem
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: [...wanted.keys()] })
        const bad = topics.filter(
          (t) => t.partitions.length < wanted.get(t.name) || t.partitions.some((p) => p.leader < 0),
        )
        if (bad.length === 0 && topics.length === wanted.size) break
        problem = `not ready: ${bad.map((t) => t.name).join(', ')}`
      } catch (err) {
        problem = String(err?.message ?? err) // e.g. a topic not yet in the metadata
      }
      if (Date.now() > deadline) throw new Error(`topics ${problem}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    // Warm-up: the first group-coordinator lookup makes the broker create __consumer_offsets;
    // doing it here spares the first test consumer a COORDINATOR_NOT_AVAILABLE retry round.
    await admin.describeGroups(['dev-stats-warmup']).catch(() => {})
    console.log(
      `[create-topics] ${wanted.size} topics on ${bootstrap}: ${missing.length} created, ` +
        `${grow.length} grown, ${wanted.size - missing.length - grow.length} already present`,
    )
  } finally {
    await admin.disconnect()
  }
}

main().catch((err) => {
  console.error(`[create-topics] failed: ${err?.stack ?? err}`)
  process.exit(1)
})
