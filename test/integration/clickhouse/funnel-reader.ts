// A reader host: builds the container from the environment (DEV_STATS_STORE=clickhouse, no
// broker: DEV_STATS_BROKER stays memory) and prints the conversion funnel of argv[2] for the day
// argv[3] as JSON. It never starts the IngestService: no consumer runs in this process.
import 'reflect-metadata'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'
import type { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import type { Guid } from '../../../src/domain/guid.js'

const [developerId, day] = process.argv.slice(2)
const funnel = createContainer().get<ReturnType<typeof getConversionFunnel>>(TOKENS.GetConversionFunnel)
const report = await funnel({ developerId: developerId as Guid }, { fromDate: day ?? '', toDate: day ?? '' })
process.stdout.write(JSON.stringify(report))
process.exit(0)
