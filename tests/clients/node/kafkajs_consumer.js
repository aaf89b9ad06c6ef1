// A consumer of a recorded scenario written with kafkajs: node kafkajs_consumer.js SPEC_JSON
// (see tests/clients/consumer.py for the spec and the commands on stdin: close).
//
// Its log is kafkajs' default JSON logger (one JSON object a line on stdout/stderr) at INFO, or at
// DEBUG when the spec's level says so. The truth comes from the consumer's instrumentation events:
// GROUP_JOIN (assigned: the member id and the assignment; kafkajs emits it once SyncGroup is done),
// REBALANCING (revoked: the heartbeat or fetch saw the group rebalancing), STOP (closed).
'use strict'
const fs = require('fs')
const readline = require('readline')
const { Kafka, logLevel, PartitionAssigners } = require('kafkajs')

// kafkajs' round-robin assigner taking LEADER_DELAY_MS first: librdkafka's mock cluster answers
// SyncGroup as soon as the leader's assignment covers every member and refuses a follower's SyncGroup
// that arrives later (a real broker waits for both; see tests/clients/consumer.py)
const LEADER_DELAY_MS = 50
const patientRoundRobin = config => {
  const base = PartitionAssigners.roundRobin(config)
  return {
    ...base,
    assign: async args => {
      await new Promise(resolve => setTimeout(resolve, LEADER_DELAY_MS))
      return base.assign(args)
    },
  }
}

const spec = JSON.parse(process.argv[2])
const conf = spec.config || {}
const truthFd = fs.openSync(spec.truth, 'a')
const truth = (what, kw = {}) => {
  fs.writeSync(truthFd, JSON.stringify({ t: Date.now(), who: spec.who, what, ...kw }) + '\n')
}
const parts = assignment =>
  Object.entries(assignment || {})
    .flatMap(([topic, ps]) => ps.map(p => `${topic}-${p}`))
    .sort()

const kafka = new Kafka({
  clientId: `kafkajs-${spec.who}`,
  brokers: spec.bootstrap.split(','),
  logLevel: spec.level === 'DEBUG' ? logLevel.DEBUG : logLevel.INFO,
})
const consumer = kafka.consumer({
  groupId: spec.group,
  sessionTimeout: conf.session_timeout_ms || 30000,
  heartbeatInterval: conf.heartbeat_interval_ms || 3000,
  rebalanceTimeout: conf.rebalance_timeout_ms || 60000,
  // kafkajs heartbeats between fetches: a fetch that waits longer than the session would expire it
  maxWaitTimeInMs: conf.max_wait_ms || 5000,
  partitionAssigners: [patientRoundRobin],
})
let memberId = null
consumer.on(consumer.events.GROUP_JOIN, e => {
  memberId = e.payload.memberId
  truth('assigned', { partitions: parts(e.payload.memberAssignment), member_id: memberId })
})
consumer.on(consumer.events.REBALANCING, e => truth('revoked', { partitions: [], member_id: e.payload.memberId }))

const main = async () => {
  await consumer.connect()
  await consumer.subscribe({ topics: [spec.topic], fromBeginning: true })
  await consumer.run({ eachMessage: async () => {} })
  truth('started')
  const rl = readline.createInterface({ input: process.stdin })
  for await (const line of rl) {
    if (line.trim() === 'close') break
  }
  const mid = memberId
  await consumer.disconnect()
  truth('closed', { member_id: mid })
  process.exit(0)
}
main().catch(e => {
  console.error(e)
  process.exit(1)
})
