#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --max-old-space-size=160 --max-semi-space-size=16 --single-threaded-gc --heap-growing-percent=200
// The `dev-stats-ingest` command of the installed package. The node flags above are npm start's
// (a unit test keeps the two equal), and so is glibc's fixed mmap threshold: large buffers (fetches,
// insert bodies) mapped and given back when freed, not kept in the main heap once the threshold has
// risen (a #! line this long needs Linux 5.1 or later). CommonJS, so that the line below runs before anything uses
// libuv's thread pool (an ES module entry is read through it, fixing the pool at 4 threads): each
// librdkafka consumer holds a pool thread while it waits for records.
process.env['UV_THREADPOOL_SIZE'] ||= '32'
void import('./main.js')
