package org.mflb.simulation.state;

import java.util.Arrays;

import org.mflb.core.MflbException;
import org.mflb.core.system.ServerClasses;

/**
 * Servers kept sorted by level in a permutation, so that each level set is a contiguous block
 * (see {@link Occupancy}). A level changes by ±1 in O(1): the server swaps places with the element
 * at the boundary of its block, and the block boundary moves by one. This one structure gives, in
 * O(1) and without allocation, the tail vector {@code c_i}, a uniformly random busy server
 * (exponential departures), the idle set (JIQ) and the set of shortest queues (JSQ).
 *
 * <p>Policies that only need the idle/busy split (everything but JSQ) use the <em>partial</em>
 * order: only the boundary between level 0 and level ≥ 1 is maintained, so the swaps happen only
 * when a server becomes busy or idle, which saves most of them in busy systems.
 *
 * <p>Servers of several speeds ({@link ServerClassLayout}, docs/models.md §10): with a layout, class
 * {@code k}'s servers keep the positions {@code [start(k), end(k))} of the order, each block ordered
 * by itself as above (idle before busy, or sorted), with its own busy count {@link #classBusy},
 * so that a uniformly random busy server <em>of a class</em> is one read; the counts {@code c_i} stay
 * those of all servers. Only the sorted order needs the per-class counts of every level (to find a
 * block's boundaries); the partial order — every policy of servers of several speeds — keeps only
 * the busy counts, one update when a server becomes busy or idle.
 *
 * <p>Mutable; one instance belongs to one replication.
 */
public final class LevelSets implements Occupancy {

    /** Initial number of levels kept in {@code atLeast}; it doubles when a server goes higher. */
    private static final int INITIAL_LEVELS = 64;

    private final int n;
    /**
     * Per-server state, packed: {@code cell[2s]} = level (number of jobs) of server {@code s},
     * {@code cell[2s + 1]} = its index in {@code order}. A level change reads and writes both, so
     * keeping them side by side costs one cache miss at large N instead of two.
     */
    private final int[] cell;
    /** Servers sorted by non-decreasing level. */
    private final int[] order;
    /** {@code atLeast[i] = c_i}; entries beyond the highest level are 0. */
    private int[] atLeast;
    private int highest;
    private final boolean sorted;
    /** The classes of servers, or {@code null} for servers of one speed. */
    private final ServerClassLayout layout;
    /**
     * {@code classAtLeast[k][i]}: servers of class k with at least i jobs, the boundaries of the levels
     * inside class k's block; kept only in the sorted order ({@code null} without classes or unsorted).
     */
    private final int[][] classAtLeast;
    /** {@code classBusy[k] = classAtLeast[k][1]}, side by side for the departure rate ({@code null} without classes). */
    /** {@code serverClass[s]}: the class of server s ({@link #classTable}; {@code null} without classes). */
    private final short[] serverClass;
    /** {@code classEnd[k]} = {@link ServerClassLayout#end}{@code (k)}, one load away in the moves ({@code null} without classes). */
    private final int[] classEnd;
    private final int[] classBusy;

    /**
     * Fully sorted level sets.
     *
     * @param initialLevels number of jobs of each server (not modified); length {@code N ≥ 1},
     *        entries {@code ≥ 0}
     */
    public LevelSets(int[] initialLevels) {
        this(initialLevels, true);
    }

    /**
     * @param initialLevels number of jobs of each server (not modified); length {@code N ≥ 1},
     *        entries {@code ≥ 0}
     * @param sorted whether to keep the order sorted by level at all levels (else only idle before busy)
     */
    public LevelSets(int[] initialLevels, boolean sorted) {
        this(initialLevels, sorted, null);
    }

    /**
     * @param initialLevels number of jobs of each server (not modified); length {@code N ≥ 1},
     *        entries {@code ≥ 0}
     * @param sorted whether to keep each block sorted by level at all levels (else only idle before busy)
     * @param layout the server classes ({@code null}: one class); servers {@code [start(k), end(k))}
     *        are of class k
     */
    public LevelSets(int[] initialLevels, boolean sorted, ServerClassLayout layout) {
        this.sorted = sorted;
        this.layout = layout;
        n = initialLevels.length;
        cell = new int[2 * n];
        order = new int[n];
        int max = 0;
        for (int s = 0; s < n; s++) {
            if (initialLevels[s] < 0) {
                throw MflbException.invalid("level[" + s + "]", initialLevels[s], "an integer >= 0");
            }
            max = Math.max(max, initialLevels[s]);
        }
        atLeast = new int[atLeastLength(max)];
        int blocks = layout == null ? 1 : layout.count();
        classAtLeast = layout == null || !sorted ? null : new int[blocks][];
        classBusy = layout == null ? null : new int[blocks];
        serverClass = layout == null ? null : new short[n];
        classEnd = layout == null ? null : new int[blocks];
        for (int s = 0; serverClass != null && s < n; s++) {
            serverClass[s] = (short) layout.classOf(s);
        }
        for (int b = 0; b < blocks; b++) {
            int from = layout == null ? 0 : layout.start(b);
            int to = layout == null ? n : layout.end(b);
            if (layout != null) {
                classEnd[b] = to;
            }
            // counting sort of the block's servers by level
            int[] start = new int[max + 2];
            for (int s = from; s < to; s++) {
                start[initialLevels[s] + 1]++;
            }
            start[0] = from;
            for (int i = 1; i <= max + 1; i++) {
                start[i] += start[i - 1];
            }
            for (int s = from; s < to; s++) {
                int p = start[initialLevels[s]]++;
                order[p] = s;
                cell[2 * s + 1] = p;
                cell[2 * s] = initialLevels[s];
            }
            if (layout != null) {
                int[] ca = new int[atLeastLength(max)];
                for (int s = from; s < to; s++) {
                    for (int i = 0; i <= initialLevels[s]; i++) {
                        ca[i]++;
                    }
                }
                if (sorted) {
                    classAtLeast[b] = ca;
                }
                classBusy[b] = ca[1];
            }
        }
        for (int s = 0; s < n; s++) {
            for (int i = 0; i <= cell[2 * s]; i++) {
                atLeast[i]++;
            }
        }
        atLeast[0] = n;
        highest = max;
    }

    private static int atLeastLength(int max) {
        return Math.max(INITIAL_LEVELS, Integer.highestOneBit(max + 2) << 1);
    }

    @Override
    public int servers() {
        return n;
    }

    @Override
    public int level(int s) {
        return cell[2 * s];
    }

    @Override
    public int countAtLeast(int i) {
        return i < atLeast.length ? atLeast[i] : 0;
    }

    @Override
    public int serverAt(int p) {
        return order[p];
    }

    @Override
    public int highestLevel() {
        return highest;
    }

    @Override
    public boolean sortedByLevel() {
        return sorted;
    }

    /**
     * Adds one job to server {@code s} (level k → k+1): {@code s} swaps with the last server of
     * level {@code k}, which then becomes the first of level {@code k+1}.
     */
    public void up(int s) {
        if (layout != null) {
            upInClass(s, serverClass[s]);
            return;
        }
        int k = cell[2 * s];
        grow(k);
        if (sorted || k == 0) {
            swap(s, n - atLeast[k + 1] - 1);
        }
        raised(s, k);
    }

    /**
     * Removes one job from server {@code s} (level k ≥ 1 → k−1): {@code s} swaps with the first
     * server of level {@code k}, which then becomes the last of level {@code k−1}.
     */
    public void down(int s) {
        if (layout != null) {
            downInClass(s, serverClass[s]);
            return;
        }
        int k = cell[2 * s];
        if (sorted || k == 1) {
            swap(s, n - atLeast[k]);
        }
        lowered(s, k);
    }

    /**
     * {@link #up} of a server whose class the caller knows (saves finding it again), within the
     * block of its class.
     *
     * @param s a server
     * @param c its class in the {@link #layout()}
     */
    public void upInClass(int s, int c) {
        int k = cell[2 * s];
        grow(k);
        if (!sorted) {
            // idle before busy in the block: only a server becoming busy moves, to the last idle place
            if (k == 0) {
                swap(s, classEnd[c] - classBusy[c] - 1);
                classBusy[c]++;
            }
            raised(s, k);
            return;
        }
        int[] ca = classAtLeast[c];
        if (k + 2 >= ca.length) {
            ca = Arrays.copyOf(ca, ca.length * 2);
            classAtLeast[c] = ca;
        }
        swap(s, classEnd[c] - ca[k + 1] - 1);
        ca[k + 1]++;
        if (k == 0) {
            classBusy[c]++;
        }
        raised(s, k);
    }

    /**
     * {@link #down} of a server whose class the caller knows, within the block of its class.
     *
     * @param s a server with at least one job
     * @param c its class in the {@link #layout()}
     */
    public void downInClass(int s, int c) {
        int k = cell[2 * s];
        if (!sorted) {
            if (k == 1) {
                swap(s, classEnd[c] - classBusy[c]);
                classBusy[c]--;
            }
            lowered(s, k);
            return;
        }
        int[] ca = classAtLeast[c];
        swap(s, classEnd[c] - ca[k]);
        ca[k]--;
        if (k == 1) {
            classBusy[c]--;
        }
        lowered(s, k);
    }

    /** Keeps {@code atLeast} long enough for a server of level {@code k} to go up. */
    private void grow(int k) {
        if (k + 2 >= atLeast.length) {
            atLeast = Arrays.copyOf(atLeast, atLeast.length * 2);
        }
    }

    /** The counts of all servers after {@code s} went from level k to k + 1 (its place already set). */
    private void raised(int s, int k) {
        atLeast[k + 1]++;
        cell[2 * s] = k + 1;
        if (k + 1 > highest) {
            highest = k + 1;
        }
    }

    /** The counts of all servers after {@code s} went from level k to k − 1 (its place already set). */
    private void lowered(int s, int k) {
        atLeast[k]--;
        cell[2 * s] = k - 1;
    }

    /**
     * @param s a server
     * @return its class in the {@link #layout()} (which must not be {@code null})
     */
    public int classOf(int s) {
        return serverClass[s];
    }

    /**
     * The class of every server in a table: one load where the hot loops would otherwise recompute
     * {@link ServerClassLayout#classOf} (K − 1 comparisons) per arrival or per sample. The classes number
     * at most {@link ServerClasses#MAX_CLASSES}, so a short holds one.
     *
     * @param layout the server classes
     * @return {@code table[s] = layout.classOf(s)} for every server s
     */
    public static short[] classTable(ServerClassLayout layout) {
        short[] table = new short[layout.servers()];
        for (int s = 0; s < table.length; s++) {
            table[s] = (short) layout.classOf(s);
        }
        return table;
    }

    /** @return the server classes, or {@code null} for servers of one speed */
    public ServerClassLayout layout() {
        return layout;
    }

    /**
     * @return {@code busy[k]}: the busy servers of each class of the {@link #layout()}; the live internal
     *         array, not to be modified (read it, do not keep it across events)
     */
    public int[] classBusy() {
        return classBusy;
    }

    /**
     * @param k a class of the {@link #layout()}
     * @param i in {@code [0, classBusy()[k])}
     * @return the i-th busy server of class k (a uniform i gives a uniformly random busy server of the class)
     */
    public int busyServerOfClass(int k, int i) {
        return order[classEnd[k] - classBusy[k] + i];
    }

    /** Lowers the level of {@code s} to {@code target ≤ level(s)}, one step at a time. */
    public void lowerTo(int s, int target) {
        while (cell[2 * s] > target) {
            down(s);
        }
    }

    private void swap(int s, int p) {
        int other = order[p];
        int ps = cell[2 * s + 1];
        order[ps] = other;
        cell[2 * other + 1] = ps;
        order[p] = s;
        cell[2 * s + 1] = p;
    }

    /** Copies {@code c_0..c_len-1} into {@code out} (modified). */
    public void copyCounts(int[] out, int len) {
        int m = Math.min(len, atLeast.length);
        System.arraycopy(atLeast, 0, out, 0, m);
        Arrays.fill(out, m, len, 0);
    }
}
