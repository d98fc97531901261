/* Reference loop for the simulator benchmark (not part of the product or its tests): SQ(2) with two
 * distinct samples, N exponential single-server queues, lambda = 0.9, from empty, one thread.
 * A per-server queue-length array and a list of the busy servers (uniform departures in O(1)).
 * usage: sq2_loop N EVENTS   -> prints "N events seconds events_per_second events_per_cpu_second" */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint64_t s[2] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull};
static inline uint64_t next(void) { /* xoroshiro128++ */
  uint64_t s0 = s[0], s1 = s[1], r = ((s0 + s1) << 17 | (s0 + s1) >> 47) + s0;
  s1 ^= s0; s[0] = (s0 << 49 | s0 >> 15) ^ s1 ^ (s1 << 21); s[1] = s1 << 28 | s1 >> 36; return r; }
static inline double unif(void) { return (next() >> 11) * 0x1.0p-53; }
static inline uint32_t below(uint32_t n) { return (uint32_t)(((next() >> 32) * (uint64_t)n) >> 32); }
int main(int argc, char **argv) {
  uint32_t n = (uint32_t)atol(argv[1]); long events = atol(argv[2]); double lambda = 0.9, t = 0, sum = 0;
  uint32_t *q = calloc(n, 4), *busy = malloc(4ul * n), *pos = malloc(4ul * n), nb = 0;
  struct timespec a, b, ca, cb; clock_gettime(CLOCK_MONOTONIC, &a); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
  for (long e = 0; e < events; e++) {
    double total = n * lambda + nb, u = unif() * total;
    t += -log(1 - unif()) / total;
    if (u < n * lambda) { uint32_t x = below(n), y = below(n - 1); y += y >= x; uint32_t j = q[y] < q[x] ? y : x;
      if (q[j]++ == 0) { pos[j] = nb; busy[nb++] = j; } }
    else { uint32_t j = busy[(uint32_t)(u - n * lambda) < nb ? (uint32_t)(u - n * lambda) : nb - 1];
      if (--q[j] == 0) { uint32_t last = busy[--nb]; busy[pos[j]] = last; pos[last] = pos[j]; } }
    sum += nb;
  }
  clock_gettime(CLOCK_MONOTONIC, &b); clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
  double sec = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec), cpu = (cb.tv_sec - ca.tv_sec) + 1e-9 * (cb.tv_nsec - ca.tv_nsec);
  printf("%u %ld %.4f %.4g %.4g  (t = %.1f, mean busy %.3f)\n", n, events, sec, events / sec, events / cpu, t, sum / events / n);
  return 0;
}
