package org.mflb.simulation.state;

import java.util.Arrays;

/**
 * The event calendar of the general-service simulation: pending service completions as
 * {@code (time, owner)} pairs, delivered in increasing order of time. Events at equal times
 * (service laws with atoms) come out in an order fixed by the sequence of operations, as everything
 * here is deterministic: the same run gives the same sequence.
 *
 * <p>Structure. A calendar of up to {@value #HEAP_ONLY_LIMIT} events is an implicit 4-ary min-heap,
 * small enough to stay in the processor's caches. Beyond that, a sift-down in a heap of N entries
 * reads about log₄N nodes, one dependent cache miss each in its lower levels (at N = 10⁶ this was
 * most of the general-service engine's time), so the calendar becomes a two-level timing wheel in
 * front of which only the current bucket is a heap (after Brown's calendar queue, CACM 1988, and
 * the ladder queue of Tang, Goh and Thng, ACM TOMACS 2005). With a bucket width {@code w} and
 * {@code x(t) = (t − origin)/w}, an event with fine index {@code ⌊x⌋} belongs to
 * <ul>
 * <li>the heap when {@code ⌊x⌋ ≤ cursor} (the current fine bucket, or earlier);</li>
 * <li>a fine bucket ({@value #FINE} of them, width {@code w}) when it lies in the current coarse
 *     bucket, later than the cursor;</li>
 * <li>a coarse bucket ({@value #COARSE} of them, width {@value #FINE}{@code ·w}) when it lies in one
 *     of the next coarse buckets up to a limit;</li>
 * <li>an overflow list beyond.</li>
 * </ul>
 * Buckets are unordered lists. When the heap empties, the cursor moves to the next non-empty fine
 * bucket and heapifies it; when the fine buckets are exhausted, the next coarse bucket is scattered
 * into them (and every half turn of the coarse wheel the overflow is filed again). The fine index
 * is non-decreasing in {@code t} (floating-point subtraction and multiplication are monotone), so
 * every event of a later bucket is later than every event of the heap: the heap's root is the
 * earliest event. Each event is thus moved O(1) times, in sequential passes over
 * {@value #CHUNK}-pair chunks (appends touch only the buckets' current chunks, which stay in the
 * cache), and heap operations run on about {@value #TARGET_PER_BUCKET} entries.
 *
 * <p>The width is chosen from the pending events at a rebuild (a deterministic sample of their
 * times: the spacing of the earliest ones) and re-chosen from the observed events per fine bucket
 * when that drifts out of [{@value #TARGET_PER_BUCKET}/4, 4·{@value #TARGET_PER_BUCKET}]; a rebuild
 * (O(size)) follows at least size/2 removals or a doubling of the calendar, so its cost is
 * O(1) per event amortised. Nothing here draws random numbers.
 *
 * <p>Layout, for speed: a heap entry i occupies {@code heap[2i]} (the time's IEEE-754 bits) and
 * {@code heap[2i+1]} (the owner), so the four children of a node share one or two cache lines, and
 * the times are compared as {@code long}s — for non-negative doubles the bit patterns are ordered
 * like the values. Times must therefore be finite and {@code ≥ 0} (simulated times are), owners
 * {@code ≥ 0}. Bucket lists are chains of chunks in one pool of {@code long}s with a free list: the
 * hot loop allocates nothing once the pool has grown to the calendar's largest size.
 */
public final class EventCalendar {

    /** Largest number of pending events kept as a single heap. */
    static final int HEAP_ONLY_LIMIT = 1 << 9;
    /** Events per fine bucket the width aims at. */
    static final int TARGET_PER_BUCKET = 32;
    private static final int LOG_FINE = 11;
    /** Number of fine buckets (one coarse bucket). */
    static final int FINE = 1 << LOG_FINE;
    /** Number of coarse buckets. */
    static final int COARSE = 1 << 11;
    /** Pairs per chunk of a bucket list (a power of 2). */
    static final int CHUNK = 32;
    /** List index of the overflow; lists [0, FINE) are the fine buckets, [FINE, FINE + COARSE) the coarse. */
    private static final int OVERFLOW = FINE + COARSE;
    /** Fine indices from which integer bucket arithmetic in doubles would lose exactness: re-origin. */
    private static final double INDEX_LIMIT = 0x1p50;
    private static final int NONE = -1;
    /** Times sampled to estimate the bucket width. */
    private static final int WIDTH_SAMPLE = 1024;

    // ---- the heap: all events when not tiered, else those of fine index <= cursor
    private long[] heap;
    private int heapSize;
    /** All pending events. */
    private int size;
    /** Rebuild (into tiers, or with a new width) when the size exceeds this. */
    private int growthLimit = HEAP_ONLY_LIMIT;

    // ---- the tiers (used once the calendar has outgrown HEAP_ONLY_LIMIT)
    private boolean tiered;
    private double origin;
    private double width;
    private double scale;
    /** Fine index of the heap's bucket. */
    private long cursor;
    /** {@code cursor + 1}: events with {@code x} below go to the heap. */
    private double nearEnd;
    /** End of the current coarse bucket in fine units: fine buckets hold {@code x} below. */
    private double fineEnd;
    /** Coarse buckets hold coarse indices below this; the overflow holds the rest. */
    private long coarseLimit;
    /** {@code coarseLimit} in fine units. */
    private double coarseEnd;
    private int fineCount;
    private int coarseCount;
    /** Per list {@code l}: {@code meta[4l]} first chunk, {@code meta[4l+1]} last chunk, {@code meta[4l+2]} pairs. */
    private int[] meta;
    /** Chunk c holds pairs at {@code pool[2·CHUNK·c ...]}. */
    private long[] pool;
    private int[] nextChunk;
    private int freeChunk = NONE;
    /** Removals since the last rebuild, and the cursor then: the observed events per fine bucket. */
    private long removed;
    private long cursorAtRebuild;

    /** @param initialCapacity initial number of entries ({@code ≥ 1}) */
    public EventCalendar(int initialCapacity) {
        heap = new long[2 * Math.max(4, Math.min(initialCapacity, HEAP_ONLY_LIMIT + 1))];
    }

    /** @return the number of pending events */
    public int size() {
        return size;
    }

    /** @return the chunks of the bucket lists' pool (a test aid: the memory stays that of the largest size) */
    int poolChunks() {
        return tiered ? nextChunk.length : 0;
    }

    /** @return the time of the earliest event, {@code +∞} when the calendar is empty */
    public double firstTime() {
        return heapSize > 0 ? Double.longBitsToDouble(heap[0]) : Double.POSITIVE_INFINITY;
    }

    /** @return the owner (server or pool) of the earliest event; the calendar must be non-empty */
    public int firstOwner() {
        return (int) heap[1];
    }

    /** Schedules an event of {@code who ≥ 0} at the finite time {@code t ≥ 0}. */
    public void add(double t, int who) {
        final long key = Double.doubleToRawLongBits(t);
        if (tiered) {
            double x = (t - origin) * scale;
            if (size == 0 && !(x < nearEnd)) {
                restartAt(t, x); // nothing pending: the cursor moves to the event
                x = (t - origin) * scale;
            }
            if (x < nearEnd) {
                push(key, who);
            } else {
                file(key, who, x);
            }
        } else {
            push(key, who);
        }
        if (++size > growthLimit) {
            rebuild(0, Double.POSITIVE_INFINITY);
        }
    }

    /** Removes the earliest event. */
    public void removeFirst() {
        size--;
        removed++;
        removeRoot();
        if (heapSize == 0 && size > 0) {
            advance();
        }
    }

    /** Replaces the earliest event by one of {@code who} at time {@code t} (a remove plus an add). */
    public void replaceFirst(double t, int who) {
        final long key = Double.doubleToRawLongBits(t);
        removed++;
        if (tiered) {
            double x = (t - origin) * scale;
            if (!(x < nearEnd)) {
                file(key, who, x); // a later bucket: file it, then remove the root
                removeRoot();
                if (heapSize == 0) {
                    advance();
                }
                return;
            }
        }
        siftDown(key, who);
    }

    // ------------------------------------------------------------------ heap (order: time)

    private void push(long key, long who) {
        if (2 * heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long[] h = heap;
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long kp = h[2 * parent];
            if (kp <= key) {
                break;
            }
            h[2 * i] = kp;
            h[2 * i + 1] = h[2 * parent + 1];
            i = parent;
        }
        h[2 * i] = key;
        h[2 * i + 1] = who;
    }

    private void removeRoot() {
        int last = --heapSize;
        if (last > 0) {
            siftDown(heap[2 * last], heap[2 * last + 1]);
        }
    }

    /** Places {@code (key, who)} at the root and sifts it down among the first {@code heapSize} entries. */
    private void siftDown(long key, long who) {
        siftDown(0, key, who);
    }

    /** Places {@code (key, who)} at entry {@code from} and sifts it down among the first {@code heapSize} entries. */
    private void siftDown(int from, long key, long who) {
        final long[] h = heap;
        final int n = heapSize;
        int i = from;
        for (;;) {
            int c = 4 * i + 1;
            if (c >= n) {
                break;
            }
            int best;
            long bk;
            if (c + 3 < n) {
                // tournament of the four children, written as selects (conditional moves)
                long k0 = h[2 * c];
                long k1 = h[2 * c + 2];
                long k2 = h[2 * c + 4];
                long k3 = h[2 * c + 6];
                int b01 = k1 < k0 ? c + 1 : c;
                long m01 = k1 < k0 ? k1 : k0;
                int b23 = k3 < k2 ? c + 3 : c + 2;
                long m23 = k3 < k2 ? k3 : k2;
                best = m23 < m01 ? b23 : b01;
                bk = m23 < m01 ? m23 : m01;
            } else {
                best = c;
                bk = h[2 * c];
                for (int j = c + 1; j < n; j++) {
                    long kj = h[2 * j];
                    if (kj < bk) {
                        bk = kj;
                        best = j;
                    }
                }
            }
            if (bk >= key) {
                break;
            }
            h[2 * i] = bk;
            h[2 * i + 1] = h[2 * best + 1];
            i = best;
        }
        h[2 * i] = key;
        h[2 * i + 1] = who;
    }

    /** Floyd's bottom-up construction of the heap from its first {@code heapSize} entries. */
    private void heapify() {
        final long[] h = heap;
        final int n = heapSize;
        for (int i = (n - 2) >>> 2; i >= 0 && n > 1; i--) {
            siftDown(i, h[2 * i], h[2 * i + 1]);
        }
    }

    // ------------------------------------------------------------------ tiers

    /** Files an event later than the heap's bucket ({@code x ≥ nearEnd}) in its bucket or the overflow. */
    private void file(long key, long who, double x) {
        if (x < fineEnd) {
            append((int) ((long) x & (FINE - 1)), key, who);
            fineCount++;
        } else if (x < coarseEnd) {
            append(FINE + (int) (((long) x >>> LOG_FINE) & (COARSE - 1)), key, who);
            coarseCount++;
        } else {
            append(OVERFLOW, key, who);
        }
    }

    /** Files an event wherever it belongs now (heap, bucket or overflow). */
    private void place(long key, long who) {
        double x = (Double.longBitsToDouble(key) - origin) * scale;
        if (x < nearEnd) {
            push(key, who);
        } else {
            file(key, who, x);
        }
    }

    private void append(int list, long key, long who) {
        final int m = list << 2;
        final int count = meta[m + 2];
        final int offset = count & (CHUNK - 1);
        int chunk;
        if (offset == 0) {
            chunk = allocateChunk();
            if (count == 0) {
                meta[m] = chunk;
            } else {
                nextChunk[meta[m + 1]] = chunk;
            }
            meta[m + 1] = chunk;
        } else {
            chunk = meta[m + 1];
        }
        final int p = 2 * (chunk * CHUNK + offset);
        pool[p] = key;
        pool[p + 1] = who;
        meta[m + 2] = count + 1;
    }

    private int allocateChunk() {
        if (freeChunk == NONE) {
            int old = nextChunk.length;
            int cap = old + Math.max(64, old / 2);
            pool = Arrays.copyOf(pool, 2 * CHUNK * cap);
            nextChunk = Arrays.copyOf(nextChunk, cap);
            freeChunks(old, cap);
        }
        int c = freeChunk;
        freeChunk = nextChunk[c];
        return c;
    }

    /** Puts chunks {@code [from, to)} on the free list. */
    private void freeChunks(int from, int to) {
        for (int c = from; c < to - 1; c++) {
            nextChunk[c] = c + 1;
        }
        nextChunk[to - 1] = freeChunk;
        freeChunk = from;
    }

    /**
     * Moves the heap to the next non-empty bucket: called when the heap is empty and the calendar
     * is not.
     */
    private void advance() {
        while (heapSize == 0) {
            if (fineCount > 0) {
                cursor++;
                nearEnd = cursor + 1;
                int m = (int) (cursor & (FINE - 1)) << 2;
                if (meta[m + 2] > 0) {
                    takeIntoHeap(m);
                }
            } else {
                long next = (cursor >>> LOG_FINE) + 1;
                if (coarseCount == 0) {
                    // only the overflow remains: jump to its earliest coarse bucket
                    double first = overflowMinimum();
                    if (!(first < INDEX_LIMIT - ((double) COARSE * FINE))) {
                        rebuild(0, Double.POSITIVE_INFINITY);
                        return;
                    }
                    next = Math.max(next, (long) first >>> LOG_FINE);
                }
                if (enterCoarse(next)) {
                    return; // rebuilt
                }
            }
        }
    }

    /**
     * Makes coarse bucket {@code c1} the current one: its events go to the fine buckets (or the heap),
     * the overflow is filed again every half turn, and the width is re-chosen when the observed
     * events per fine bucket drift out of range.
     *
     * @return whether the calendar was rebuilt
     */
    private boolean enterCoarse(long c1) {
        long passed = (c1 << LOG_FINE) - cursorAtRebuild;
        if (removed >= Math.max(size, HEAP_ONLY_LIMIT) / 2 && passed > 0) {
            double perBucket = removed / (double) passed;
            if (perBucket > 4 * TARGET_PER_BUCKET) {
                // too dense: measure the front afresh, and narrow at least in proportion
                rebuild(0, width * TARGET_PER_BUCKET / perBucket);
                return true;
            }
            if (perBucket < TARGET_PER_BUCKET / 4.0) {
                double wider = width * Math.min(64, TARGET_PER_BUCKET / perBucket); // too sparse: widen
                rebuild(wider, wider);
                return true;
            }
        }
        cursor = c1 << LOG_FINE;
        nearEnd = cursor + 1;
        fineEnd = (double) ((c1 + 1) << LOG_FINE);
        int m = (FINE + (int) (c1 & (COARSE - 1))) << 2;
        coarseCount -= meta[m + 2];
        refile(m);
        if (coarseLimit - c1 < COARSE / 2) {
            coarseLimit = c1 + COARSE;
            coarseEnd = (double) (coarseLimit << LOG_FINE);
            refile(OVERFLOW << 2);
        }
        return false;
    }

    /** Empties the list at {@code meta[m]} into the (empty) heap and heapifies it. */
    private void takeIntoHeap(int m) {
        final int count = meta[m + 2];
        if (heap.length < 2 * count) {
            heap = new long[2 * Math.max(count, heap.length)];
        }
        int chunk = meta[m];
        for (int done = 0; done < count; done += CHUNK) {
            System.arraycopy(pool, 2 * CHUNK * chunk, heap, 2 * done, 2 * Math.min(CHUNK, count - done));
            int next = nextChunk[chunk];
            nextChunk[chunk] = freeChunk;
            freeChunk = chunk;
            chunk = next;
        }
        meta[m + 2] = 0;
        fineCount -= count;
        heapSize = count;
        heapify();
    }

    /** Detaches the list at {@code meta[m]} and files each of its events where it belongs now. */
    private void refile(int m) {
        final int count = meta[m + 2];
        int chunk = meta[m];
        meta[m + 2] = 0;
        for (int done = 0; done < count; done += CHUNK) {
            int base = 2 * CHUNK * chunk;
            int k = Math.min(CHUNK, count - done);
            for (int j = 0; j < k; j++) {
                place(pool[base + 2 * j], pool[base + 2 * j + 1]); // may grow the pool: re-read it
            }
            int next = nextChunk[chunk];
            nextChunk[chunk] = freeChunk; // freed only once read
            freeChunk = chunk;
            chunk = next;
        }
    }

    /** @return the smallest {@code x} of the overflow's events */
    private double overflowMinimum() {
        final int m = OVERFLOW << 2;
        final int count = meta[m + 2];
        int chunk = meta[m];
        long min = Long.MAX_VALUE;
        for (int done = 0; done < count; done += CHUNK) {
            int base = 2 * CHUNK * chunk;
            int k = Math.min(CHUNK, count - done);
            for (int j = 0; j < k; j++) {
                min = Math.min(min, pool[base + 2 * j]);
            }
            chunk = nextChunk[chunk];
        }
        return (Double.longBitsToDouble(min) - origin) * scale;
    }

    /** The calendar is empty: put the cursor at time {@code t} (fine index {@code x}). */
    private void restartAt(double t, double x) {
        if (x < INDEX_LIMIT - ((double) COARSE * FINE)) {
            long c1 = (long) x >>> LOG_FINE;
            cursor = (long) x;
            fineEnd = (double) ((c1 + 1) << LOG_FINE);
            coarseLimit = c1 + COARSE;
        } else {
            origin = t;
            cursor = 0;
            fineEnd = FINE;
            coarseLimit = COARSE;
        }
        nearEnd = cursor + 1;
        coarseEnd = (double) (coarseLimit << LOG_FINE);
        cursorAtRebuild = cursor;
        removed = 0;
    }

    /**
     * Rebuilds the tiers around the earliest pending event, with the bucket width estimated from the
     * pending events ({@link #estimateWidth}) and brought into {@code [lower, upper]}. Works in place
     * (each chunk is freed once its events are filed again), so the memory stays that of the
     * pending events. Leaves the heap non-empty unless the calendar is.
     */
    private void rebuild(double lower, double upper) {
        final int n = size;
        final long[] near = Arrays.copyOf(heap, 2 * heapSize);
        final int nearCount = heapSize;
        final int lists = tiered ? OVERFLOW + 1 : 0;
        final int[] first = new int[lists];
        final int[] counts = new int[lists];
        for (int l = 0; l < lists; l++) {
            first[l] = meta[4 * l];
            counts[l] = meta[4 * l + 2];
        }
        if (tiered) {
            Arrays.fill(meta, 0);
        } else {
            meta = new int[4 * (OVERFLOW + 1)];
            // the events, a partly filled last chunk of every list that can be non-empty, and a margin
            int chunks = Math.max(64, n / CHUNK + Math.min(n, OVERFLOW + 1));
            chunks += chunks / 4;
            pool = new long[2 * CHUNK * chunks];
            nextChunk = new int[chunks];
            freeChunks(0, chunks);
            tiered = true;
        }
        heapSize = 0;
        fineCount = 0;
        coarseCount = 0;
        // first pass: the earliest time, and every stride-th time as a sample
        final double[] sample = new double[Math.min(n, WIDTH_SAMPLE)];
        final long stride = Math.max(1, n / Math.max(1, sample.length));
        long index = 0;
        int taken = 0;
        long min = Long.MAX_VALUE;
        for (int i = 0; i < nearCount; i++, index++) {
            min = Math.min(min, near[2 * i]);
            if (taken < sample.length && index % stride == 0) {
                sample[taken++] = Double.longBitsToDouble(near[2 * i]);
            }
        }
        for (int l = 0; l < lists; l++) {
            int chunk = first[l];
            for (int done = 0; done < counts[l]; done += CHUNK) {
                int base = 2 * CHUNK * chunk;
                int k = Math.min(CHUNK, counts[l] - done);
                for (int j = 0; j < k; j++, index++) {
                    long key = pool[base + 2 * j];
                    min = Math.min(min, key);
                    if (taken < sample.length && index % stride == 0) {
                        sample[taken++] = Double.longBitsToDouble(key);
                    }
                }
                chunk = nextChunk[chunk];
            }
        }
        origin = n > 0 ? Double.longBitsToDouble(min) : 0;
        width = lower < upper ? Math.max(lower, Math.min(upper, estimateWidth(sample, n, origin))) : lower;
        width = Math.max(Double.MIN_NORMAL, Math.min(width, 1e300));
        scale = 1 / width;
        cursor = 0;
        nearEnd = 1;
        fineEnd = FINE;
        coarseLimit = COARSE;
        coarseEnd = (double) COARSE * FINE;
        // second pass: file every event; a chunk goes back to the free list once read
        for (int i = 0; i < nearCount; i++) {
            place(near[2 * i], near[2 * i + 1]);
        }
        if (lists > 0) {
            // the chunks of the detached lists are not on the free list: each joins it once read
            for (int l = 0; l < lists; l++) {
                int chunk = first[l];
                for (int done = 0; done < counts[l]; done += CHUNK) {
                    int base = 2 * CHUNK * chunk;
                    int k = Math.min(CHUNK, counts[l] - done);
                    for (int j = 0; j < k; j++) {
                        place(pool[base + 2 * j], pool[base + 2 * j + 1]); // may grow the pool: re-read it
                    }
                    int next = nextChunk[chunk];
                    nextChunk[chunk] = freeChunk;
                    freeChunk = chunk;
                    chunk = next;
                }
            }
        }
        removed = 0;
        cursorAtRebuild = 0;
        growthLimit = (int) Math.min(Integer.MAX_VALUE, Math.max(HEAP_ONLY_LIMIT, 2L * n));
    }

    /**
     * A bucket width giving about {@value #TARGET_PER_BUCKET} of the {@code n} pending events per
     * bucket at the front of the calendar (where it is read next), from a sample of their times
     * (modified: sorted): the spread of the earliest 1/32 of the sample above the earliest time.
     */
    static double estimateWidth(double[] sample, int n, double min) {
        int s = sample.length;
        if (s < 2) {
            return 1;
        }
        Arrays.sort(sample);
        int r = Math.max(1, s / 32);
        double w = TARGET_PER_BUCKET * (sample[r] - min) / ((double) n * r / s);
        if (!(w > 0)) {
            w = TARGET_PER_BUCKET * (sample[s - 1] - min) / n; // the earliest events coincide
        }
        return w > 0 ? w : 1; // every sampled event at one time
    }
}
