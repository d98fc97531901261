package org.mflb.pde.workload;

import org.hipparchus.transform.DftNormalization;
import org.hipparchus.transform.FastFourierTransformer;
import org.hipparchus.transform.TransformType;

/**
 * Discrete convolutions by FFT (radix 2, Hipparchus), with a kernel transformed once and applied many
 * times. The round-off is of order {@code 1e-16} times the largest products involved, i.e. absolute,
 * not relative to each output: far in a light tail, outputs below that level are noise (the marches
 * clamp them at 0).
 */
final class Convolution {

    private Convolution() {
    }

    /** @return the smallest power of two {@code ≥ n} */
    static int size(int n) {
        int s = 1;
        while (s < n) {
            s <<= 1;
        }
        return s;
    }

    /** @return the transform of {@code kernel[0..length)} zero-padded to {@code size} */
    static double[][] transform(double[] kernel, int offset, int length, int size) {
        double[][] z = new double[2][size];
        System.arraycopy(kernel, offset, z[0], 0, Math.min(length, size));
        FastFourierTransformer.transformInPlace(z, DftNormalization.STANDARD, TransformType.FORWARD);
        return z;
    }

    /**
     * The circular convolution of {@code x[offset..offset+length)} (zero-padded) with a transformed
     * kernel: {@code out[q] = Σ_i x[offset+i] k[(q − i) mod size]}.
     *
     * @param kernelTransform {@link #transform} of the kernel, of the size used
     * @return the {@code size} outputs
     */
    static double[] apply(double[] x, int offset, int length, double[][] kernelTransform) {
        int size = kernelTransform[0].length;
        double[][] z = new double[2][size];
        System.arraycopy(x, offset, z[0], 0, length);
        FastFourierTransformer.transformInPlace(z, DftNormalization.STANDARD, TransformType.FORWARD);
        double[] re = z[0];
        double[] im = z[1];
        double[] kr = kernelTransform[0];
        double[] ki = kernelTransform[1];
        for (int i = 0; i < size; i++) {
            double r = re[i] * kr[i] - im[i] * ki[i];
            im[i] = re[i] * ki[i] + im[i] * kr[i];
            re[i] = r;
        }
        FastFourierTransformer.transformInPlace(z, DftNormalization.STANDARD, TransformType.INVERSE);
        return re;
    }

    /**
     * The first {@code n} outputs of the linear convolution {@code y[k] = Σ_{i ≤ k} x[i] kernel[k − i]}.
     */
    static double[] linear(double[] x, double[] kernel, int n) {
        if ((long) n * n <= 1L << 14) {
            double[] y = new double[n];
            for (int k = 0; k < n; k++) {
                double s = 0;
                for (int i = 0; i <= k; i++) {
                    s += x[i] * kernel[k - i];
                }
                y[k] = s;
            }
            return y;
        }
        int size = size(2 * n);
        double[] out = apply(x, 0, n, transform(kernel, 0, n, size));
        double[] y = new double[n];
        System.arraycopy(out, 0, y, 0, n);
        return y;
    }
}
