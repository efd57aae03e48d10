package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.util.Locale;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * EXTRACT and date/timestamp +/- interval on days (DATE) or milliseconds (TIMESTAMP), in UTC
 * (values carry no time zone), with primitive civil-calendar arithmetic: no object per row.
 * EXTRACT units follow Calcite: DOW is 1 (Sunday) .. 7, WEEK is the ISO-8601 week, EPOCH is
 * seconds (truncated toward zero before 1970, as Calcite), SECOND is whole seconds. Adding months clamps the day to the target month's last day.
 */
final class DateTimeFunctions {
  private DateTimeFunctions() {}

  static final long MS_PER_DAY = 86_400_000L;

  /** Units EXTRACT supports. */
  enum Unit { YEAR, QUARTER, MONTH, WEEK, DAY, DOW, DOY, ISODOW, HOUR, MINUTE, SECOND, MILLISECOND, EPOCH }

  static Unit unit(String name) {
    try {
      return Unit.valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("Unsupported EXTRACT unit " + name);
    }
  }

  /** Proleptic Gregorian year/month/day of a day number, packed as year * 10000 + month * 100 + day. */
  static long civil(long days) {
    long z = days + 719468;
    long era = Math.floorDiv(z, 146097);
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long y = yoe + era * 400;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long d = doy - (153 * mp + 2) / 5 + 1;
    long m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) {
      y++;
    }
    return y * 10000 + (y < 0 ? -1 : 1) * (m * 100 + d);
  }

  static long year(long packed) {
    return packed / 10000;
  }

  static int month(long packed) {
    return (int) (Math.abs(packed) / 100 % 100);
  }

  static int day(long packed) {
    return (int) (Math.abs(packed) % 100);
  }

  /** Day number of a civil date (inverse of {@link #civil}). */
  static long epochDay(long y, long m, long d) {
    y -= m <= 2 ? 1 : 0;
    long era = Math.floorDiv(y, 400);
    long yoe = y - era * 400;
    long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  }

  static boolean leap(long y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  }

  static int monthLength(long y, int m) {
    return switch (m) {
      case 2 -> leap(y) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  static long extract(Unit u, long days, long msOfDay) {
    switch (u) {
      case HOUR:
        return msOfDay / 3_600_000;
      case MINUTE:
        return msOfDay / 60_000 % 60;
      case SECOND:
        return msOfDay / 1000 % 60;
      case MILLISECOND:
        return msOfDay % 60_000;
      case EPOCH:
        return (days * MS_PER_DAY + msOfDay) / 1000; // truncated toward zero, as Calcite
      case DOW:
        return Math.floorMod(days + 4, 7) + 1;
      case ISODOW:
        return Math.floorMod(days + 3, 7) + 1;
      default:
        break;
    }
    long c = civil(days);
    long y = year(c);
    int m = month(c);
    switch (u) {
      case YEAR:
        return y;
      case QUARTER:
        return (m + 2) / 3;
      case MONTH:
        return m;
      case DAY:
        return day(c);
      case DOY:
        return days - epochDay(y, 1, 1) + 1;
      case WEEK: {
        long wd = Math.floorMod(days + 3, 7) + 1;
        long thursday = days - wd + 4;
        long ty = year(civil(thursday));
        return (thursday - epochDay(ty, 1, 1)) / 7 + 1;
      }
      default:
        throw new IllegalStateException(u.name());
    }
  }

  static long addMonths(long days, long months) {
    long c = civil(days);
    long y = year(c);
    long m0 = month(c) - 1 + months;
    long y2 = y + Math.floorDiv(m0, 12);
    int m2 = (int) Math.floorMod(m0, 12) + 1;
    int d = Math.min(day(c), monthLength(y2, m2));
    return epochDay(y2, m2, d);
  }

  /** EXTRACT(unit FROM date-or-timestamp) as BIGINT. */
  static final class Extract extends VecExpr {
    private final Unit unit;
    private final VecExpr arg;
    private final boolean timestamp;

    Extract(Unit unit, VecExpr arg, DataType type) {
      super(type);
      this.unit = unit;
      this.arg = arg;
      this.timestamp = arg.type.kind() == TypeKind.TIMESTAMP;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      int[] sel = batch.sel();
      LongColumnVector r = Vecs.longs(Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      ColumnVector a = arg.eval(batch);
      if (a.isRepeating) {
        r.isRepeating = true;
        sel = new int[] {0};
        n = 1;
      }
      Vecs.propagateNulls(r, a, sel, n);
      long[] x = Vecs.longValues(a);
      long[] z = r.vector;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        long v = x[i];
        z[i] = timestamp ? extract(unit, Math.floorDiv(v, MS_PER_DAY), Math.floorMod(v, MS_PER_DAY))
            : extract(unit, v, 0);
      }
      return r;
    }
  }

  /** date/timestamp +/- an interval of milliseconds or months. */
  static final class Plus extends VecExpr {
    private final VecExpr base;
    private final VecExpr interval;
    private final boolean months;
    private final boolean minus;

    Plus(VecExpr base, VecExpr interval, boolean months, boolean minus, DataType type) {
      super(type);
      this.base = base;
      this.interval = interval;
      this.months = months;
      this.minus = minus;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      int[] sel = batch.sel();
      ColumnVector r = Vecs.alloc(type, Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      ColumnVector a = base.eval(batch);
      ColumnVector b = interval.eval(batch);
      if (a.isRepeating && b.isRepeating) {
        r.isRepeating = true;
        sel = new int[] {0};
        n = 1;
      }
      Vecs.propagateNulls(r, a, b, sel, n);
      long[] x = Vecs.longValues(a);
      long[] y = Vecs.longValues(b);
      boolean ar = a.isRepeating;
      boolean br = b.isRepeating;
      boolean ts = type.kind() == TypeKind.TIMESTAMP;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        long v = x[ar ? 0 : i];
        long d = y[br ? 0 : i];
        if (minus) {
          d = -d;
        }
        long out;
        if (months) {
          out = ts ? addMonths(Math.floorDiv(v, MS_PER_DAY), d) * MS_PER_DAY + Math.floorMod(v, MS_PER_DAY)
              : addMonths(v, d);
        } else {
          out = ts ? v + d : v + d / MS_PER_DAY;
        }
        if (ts) {
          Vecs.setMillis((TimestampColumnVector) r, i, out);
        } else {
          ((LongColumnVector) r).vector[i] = out;
        }
      }
      return r;
    }
  }
}
