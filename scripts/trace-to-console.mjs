// A host's tracing set-up in its smallest form, for trying the spans out (docs/tracing.md):
//   NODE_OPTIONS="--import ./scripts/trace-to-console.mjs" npm start
// registers OpenTelemetry's SDK (a tracer provider with a span processor and an exporter) as the
// global tracer provider before the service starts; every finished span is printed to stdout.
// A real host exports to its collector instead (e.g. an OTLP exporter in a BatchSpanProcessor).
import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'

trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }))
