// The cluster's cases in one file, one after another: they share the local two-replica cluster, and
// one stops a replica, another the replicas' fetches. As one file they run beside the integration
// files (one worker of theirs) instead of after them.
import './cases/cluster-contract.js'
import './cases/cluster-equals-single.js'
import './cases/day-stamps.js'
import './cases/serving-race.js'
import './cases/replica-outage.js'
