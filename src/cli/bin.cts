#!/usr/bin/env -S node --max-old-space-size=160 --max-semi-space-size=16 --single-threaded-gc --heap-growing-percent=200
// The `dev-stats-ingest` command of the installed package. The node flags above are npm start's,
// and so is glibc's fixed mmap threshold below (a unit test keeps them equal): large buffers
// (fetches, insert bodies) mapped and given back when freed, not kept in the main heap once the
// threshold has risen. glibc reads it only at start, so the program starts itself again with it
// (process.execve, same pid; Node 22.15 and later) unless the environment sets one; the #! line
// stays under the 127 bytes kernels before Linux 5.1 read. CommonJS, so that the lines below run
// before anything uses libuv's thread pool (an ES module entry is read through it, fixing the pool
// at 4 threads): each librdkafka consumer holds a pool thread while it waits for records.
const MALLOC_MMAP_THRESHOLD = '131072'
const { execve } = process as NodeJS.Process & { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }
if (process.env['MALLOC_MMAP_THRESHOLD_'] === undefined && process.platform === 'linux' && execve) {
  execve.call(process, process.execPath, [process.execPath, ...process.execArgv, __filename, ...process.argv.slice(2)], { ...process.env, MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD })
}
process.env['UV_THREADPOOL_SIZE'] ||= '32'
void import('./main.js')
