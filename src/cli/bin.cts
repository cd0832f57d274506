#!/usr/bin/env -S node --max-old-space-size=160 --max-semi-space-size=16 --single-threaded-gc --heap-growing-percent=200
// The `dev-stats-ingest` command of the installed package. The node flags above are npm start's
// (a unit test keeps the two equal). CommonJS, so that the line below runs before anything uses
// libuv's thread pool (an ES module entry is read through it, fixing the pool at 4 threads): each
// librdkafka consumer holds a pool thread while it waits for records.
process.env['UV_THREADPOOL_SIZE'] ||= '32'
void import('./main.js')
