package dev.travertine.bench;

import java.util.SplittableRandom;

/**
 * Draws ranks 1..n with a Zipf-like skew (rank r about r^-s as likely as rank 1), by inverting
 * the distribution function of the continuous power law on [1, n + 1): constant time per draw,
 * no tables, so n may be in the millions.
 */
final class Zipf {
  private final long n;
  private final double s;
  private final double top; // the integral of x^-s from 1 to n + 1

  Zipf(long n, double s) {
    if (n < 1 || s <= 0) {
      throw new IllegalArgumentException("n = " + n + ", s = " + s);
    }
    this.n = n;
    this.s = s;
    this.top = integral(n + 1.0);
  }

  /** A rank in 1..n. */
  long next(SplittableRandom random) {
    double target = random.nextDouble() * top;
    double x = Math.abs(s - 1) < 1e-9 ? Math.exp(target) : Math.pow(1 + (1 - s) * target, 1 / (1 - s));
    return Math.min(n, Math.max(1, (long) x));
  }

  private double integral(double x) {
    return Math.abs(s - 1) < 1e-9 ? Math.log(x) : (Math.pow(x, 1 - s) - 1) / (1 - s);
  }
}
