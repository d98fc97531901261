package org.mflb.pde.workload;

/**
 * Convolutions of real sequences by FFT: a radix-2 complex transform of half the length with the
 * real-input split (a real sequence of length {@code N} is transformed as {@code N/2} complex
 * values), with the bit reversal, twiddles and the kernel's transform computed once per kernel and
 * reused for every product. The round-off is of order {@code 1e-16} times the largest products
 * involved, i.e. absolute, not relative to each output: far in a light tail, outputs below that
 * level are noise (the marches clamp them at 0). Not thread-safe (work arrays are reused).
 */
final class Convolution {

    /** Length {@code N} of the transforms (a power of two, at least 4). */
    private final int size;
    private final int half;
    private final int[] reverse;
    /** {@code cos, sin} of {@code 2πj/N}, {@code j < N/2}. */
    private final double[] cos;
    private final double[] sin;
    /** Transform of the kernel, bins {@code 0..N/2}. */
    private final double[] kr;
    private final double[] ki;
    private final double[] re;
    private final double[] im;

    /**
     * @param kernel the kernel, {@code kernel[offset..offset+length)} (zero beyond)
     * @param size the transform length, a power of two {@code ≥ 4}
     */
    Convolution(double[] kernel, int offset, int length, int size) {
        if (size < 4 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("size " + size);
        }
        this.size = size;
        this.half = size / 2;
        int bits = Integer.numberOfTrailingZeros(half);
        reverse = new int[half];
        for (int j = 0; j < half; j++) {
            reverse[j] = bits == 0 ? 0 : Integer.reverse(j) >>> (32 - bits);
        }
        cos = new double[half];
        sin = new double[half];
        for (int j = 0; j < half; j++) {
            double a = 2 * Math.PI * j / size;
            cos[j] = Math.cos(a);
            sin[j] = Math.sin(a);
        }
        re = new double[half];
        im = new double[half];
        kr = new double[half + 1];
        ki = new double[half + 1];
        forward(kernel, offset, Math.min(length, size), kr, ki);
    }

    /** @return the smallest power of two {@code ≥ max(n, 4)} */
    static int size(int n) {
        int s = 4;
        while (s < n) {
            s <<= 1;
        }
        return s;
    }

    /** @return the transform length */
    int size() {
        return size;
    }

    /**
     * The circular convolution with the kernel: {@code out[q] = Σ_i x[offset+i] k[(q − i) mod N]} for
     * {@code q < N}, {@code x} zero beyond {@code length}.
     *
     * @param out receives the {@code N} outputs (length {@code ≥ N})
     */
    void apply(double[] x, int offset, int length, double[] out) {
        double[] xr = new double[half + 1];
        double[] xi = new double[half + 1];
        forward(x, offset, Math.min(length, size), xr, xi);
        for (int k = 0; k <= half; k++) {
            double r = xr[k] * kr[k] - xi[k] * ki[k];
            xi[k] = xr[k] * ki[k] + xi[k] * kr[k];
            xr[k] = r;
        }
        inverse(xr, xi, out);
    }

    /** The first {@code n} outputs of the linear convolution {@code y[k] = Σ_{i ≤ k} x[i] kernel[k − i]}. */
    static double[] linear(double[] x, double[] kernel, int n) {
        double[] y = new double[n];
        if ((long) n * n <= 1L << 14) {
            for (int k = 0; k < n; k++) {
                double s = 0;
                for (int i = 0; i <= k; i++) {
                    s += x[i] * kernel[k - i];
                }
                y[k] = s;
            }
            return y;
        }
        Convolution c = new Convolution(kernel, 0, n, size(2 * n));
        double[] out = new double[c.size];
        c.apply(x, 0, n, out);
        System.arraycopy(out, 0, y, 0, n);
        return y;
    }

    /** The transform {@code X_k}, {@code k = 0..N/2}, of the real {@code v[offset..offset+length)}. */
    private void forward(double[] v, int offset, int length, double[] xr, double[] xi) {
        for (int j = 0; j < half; j++) {
            int a = 2 * j;
            re[reverse[j]] = a < length ? v[offset + a] : 0.0;
            im[reverse[j]] = a + 1 < length ? v[offset + a + 1] : 0.0;
        }
        butterflies(-1);
        // split: X_k = (Z_k + conj Z_{M−k})/2 − i e^{−2πik/N} (Z_k − conj Z_{M−k})/2
        for (int k = 0; k <= half; k++) {
            int k1 = k == half ? 0 : k;
            int k2 = k == 0 ? 0 : half - k;
            double zr = re[k1];
            double zi = im[k1];
            double cr = re[k2];
            double ci = -im[k2];
            double er = 0.5 * (zr + cr);
            double ei = 0.5 * (zi + ci);
            double or = 0.5 * (zr - cr);
            double oi = 0.5 * (zi - ci);
            // −i e^{−iθ} (or + i oi), θ = 2πk/N
            double c = k == half ? -1.0 : cos[k];
            double s = k == half ? 0.0 : sin[k];
            double tr = c * or + s * oi;
            double ti = c * oi - s * or;
            xr[k] = er + ti;
            xi[k] = ei - tr;
        }
    }

    /** The real sequence of length {@code N} whose transform is {@code Y_k}, {@code k = 0..N/2}. */
    private void inverse(double[] yr, double[] yi, double[] out) {
        for (int k = 0; k < half; k++) {
            int k2 = half - k;
            double ar = yr[k];
            double ai = yi[k];
            double br = yr[k2];
            double bi = -yi[k2];
            double er = 0.5 * (ar + br);
            double ei = 0.5 * (ai + bi);
            double dr = 0.5 * (ar - br);
            double di = 0.5 * (ai - bi);
            // odd part times i e^{iθ}
            double c = cos[k];
            double s = sin[k];
            double or = c * dr - s * di;
            double oi = c * di + s * dr;
            double zr = er - oi;
            double zi = ei + or;
            re[reverse[k]] = zr;
            im[reverse[k]] = zi;
        }
        butterflies(1);
        double scale = 1.0 / half;
        for (int j = 0; j < half; j++) {
            out[2 * j] = re[j] * scale;
            out[2 * j + 1] = im[j] * scale;
        }
    }

    /** In-place radix-2 butterflies on bit-reversed {@code re, im}; {@code sign} −1 forward, +1 inverse. */
    private void butterflies(int sign) {
        for (int len = 2; len <= half; len <<= 1) {
            int step = size / len;
            int h2 = len >> 1;
            for (int i = 0; i < half; i += len) {
                for (int j = 0; j < h2; j++) {
                    double wr = cos[j * step];
                    double wi = sign * sin[j * step];
                    int a = i + j;
                    int b = a + h2;
                    double xr = re[b] * wr - im[b] * wi;
                    double xi = re[b] * wi + im[b] * wr;
                    re[b] = re[a] - xr;
                    im[b] = im[a] - xi;
                    re[a] += xr;
                    im[a] += xi;
                }
            }
        }
    }
}
