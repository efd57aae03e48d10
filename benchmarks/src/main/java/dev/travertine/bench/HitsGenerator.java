package dev.travertine.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * Writes a ClickBench-like {@code hits} table ({@link HitsSchema}) as a CSV file with a header
 * row: deterministic for a row count (a fixed seed), every value present, skewed where
 * ClickBench's data is. CounterID, UserID, RegionID, pages and search phrases follow Zipf-like
 * laws (the most frequent counter is 62, the one ClickBench's dashboard queries filter on); most
 * rows have no search phrase (about 13 % do) and no advertising engine (4 % do); URLs are mostly
 * pages of the counter's own site, the rest a few popular domains, some of them Google's. A user
 * keeps a region, browser, screen and phone; events fall in July 2013. The constants
 * ClickBench's queries use (UserID 435090932899640449, URLHash 2868770270353813622, RefererHash
 * 3594120000172545465) are values of frequent rows.
 *
 * <p>Strings are ASCII without quotes, commas or line breaks, so that both engines order and
 * measure them alike; the CSV quotes every string anyway (an empty string is {@code ""}).
 *
 * <p>Usage: {@code HitsGenerator rows file.csv}
 */
public final class HitsGenerator {
  /** Changes whenever the generated rows do: cached files and databases are named with it. */
  public static final int VERSION = 1;
  private static final long SEED = 0x2013_0701L;
  private static final int DAYS = 31; // July 2013
  private static final long M63 = Long.MAX_VALUE;

  private static final String[] SITES = {"kinoteatr.ru", "autoportal.ru", "realty-msk.ru", "market-news.ru",
      "recipes-home.ru", "sport-live.ru", "games-online.ru", "weather-now.ru", "travel-guide.ru", "job-search.ru",
      "music-box.ru", "photo-club.ru", "tech-review.ru", "health-info.ru", "kids-world.ru", "fishing-forum.ru",
      "garden-tips.ru", "cinema-city.ru", "books-shop.ru", "moto-club.ru"};
  private static final String[] EXTERNAL = {"yandex.ru", "mail.ru", "vk.com", "google.ru", "odnoklassniki.ru",
      "avito.ru", "google.com", "livejournal.com", "rambler.ru", "youtube.com", "facebook.com", "news.google.ru",
      "twitter.com", "wikipedia.org", "maps.google.com", "auto.ru", "hh.ru", "irr.ru", "gismeteo.ru", "lenta.ru"};
  private static final String[] SECTIONS = {"news", "catalog", "forum", "photo", "video", "search", "articles",
      "user", "shop", "blog", "afisha", "board"};
  private static final String[] WORDS = {"free", "online", "movie", "watch", "download", "weather", "moscow",
      "news", "cars", "used", "sale", "buy", "cheap", "apartment", "rent", "job", "vacancy", "recipe", "cake",
      "chicken", "salad", "football", "hockey", "results", "music", "songs", "lyrics", "photo", "wallpaper",
      "games", "play", "kids", "school", "test", "answers", "map", "route", "train", "tickets", "hotel", "sochi",
      "crimea", "tour", "price", "review", "phone", "samsung", "iphone", "nokia", "tablet", "laptop", "repair",
      "garden", "flowers", "fishing", "dacha", "health", "diet", "doctor", "pharmacy", "books", "read", "series",
      "season", "episode", "torrent", "Google", "translate", "mail", "login", "forum", "dating", "horoscope",
      "today", "tomorrow", "city", "region", "best", "new", "top"};
  private static final String[][] ENGINES = { // SearchEngineID, referer prefix
      {"2", "http://yandex.ru/yandsearch?text="}, {"3", "http://www.google.ru/search?q="},
      {"5", "http://go.mail.ru/search?q="}, {"7", "http://www.bing.com/search?q="},
      {"9", "http://nova.rambler.ru/search?query="}, {"13", "http://www.google.com/search?q="}};
  private static final String[] MODELS = {"iPad", "iPhone", "GT-I9300", "GT-S5830", "HTC Desire", "Lumia 920",
      "GT-N7100", "Xperia Z", "Nexus 7", "Galaxy Tab", "A500", "MB526"};
  private static final short[][] SCREENS = {{1366, 768}, {1920, 1080}, {1280, 1024}, {1024, 768}, {1600, 900},
      {1440, 900}, {1280, 800}, {1680, 1050}, {1920, 1200}, {2560, 1440}};
  private static final short[][] MOBILE_SCREENS = {{320, 480}, {360, 640}, {768, 1024}, {480, 800}, {720, 1280}};
  private static final short[] ADV_ENGINES = {2, 27, 13, 3, 4, 12, 51, 32};

  private final SplittableRandom random = new SplittableRandom(SEED);
  private final Zipf counters = new Zipf(20_000, 1.05);
  private final Zipf users;
  private final Zipf phrases;
  private final Zipf pages = new Zipf(20_000, 1.0);
  private final Zipf externals = new Zipf(EXTERNAL.length, 1.0);
  private final Zipf engines = new Zipf(ENGINES.length, 1.2);
  private final Zipf regions = new Zipf(3_000, 1.2);
  private final Zipf small = new Zipf(60, 1.3); // OS, UserAgent
  private final Zipf models = new Zipf(MODELS.length, 1.0);
  private final Zipf screens = new Zipf(SCREENS.length, 1.0);
  private final Zipf advEngines = new Zipf(ADV_ENGINES.length, 1.2);
  private final String[] dates = new String[DAYS];
  private long row;

  private HitsGenerator(long rows) {
    users = new Zipf(Math.max(1_000, rows / 5), 0.7);
    phrases = new Zipf(Math.max(1_000, rows / 40), 1.0);
    for (int d = 0; d < DAYS; d++) {
      dates[d] = String.format(Locale.ROOT, "2013-07-%02d", d + 1);
    }
  }

  public static void main(String[] args) throws IOException {
    write(Path.of(args[1]), Long.parseLong(args[0]));
  }

  /** Writes {@code rows} rows to {@code csv} (through a temporary file: a file there is complete). */
  public static void write(Path csv, long rows) throws IOException {
    Path tmp = csv.resolveSibling(csv.getFileName() + ".tmp");
    HitsGenerator g = new HitsGenerator(rows);
    try (Writer w = new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII), 1 << 20)) {
      w.write(HitsSchema.COLUMNS.stream().map(HitsSchema.Column::name).collect(Collectors.joining(",")));
      w.write('\n');
      StringBuilder line = new StringBuilder(512);
      for (long i = 0; i < rows; i++) {
        line.setLength(0);
        g.next(line);
        w.append(line);
      }
    }
    Files.move(tmp, csv, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Appends the next row, in {@link HitsSchema#COLUMNS} order, with its line break. */
  private void next(StringBuilder out) {
    row++;
    SplittableRandom r = random;
    long counterRank = counters.next(r);
    int counterId = counterRank == 1 ? 62 : (int) (100 + counterRank * 7919 % 10_000_019);
    String site = counterRank <= SITES.length ? SITES[(int) counterRank - 1] : "site" + counterId + ".ru";
    long userRank = users.next(r);
    long userId = userRank == 3 ? 435090932899640449L : mix(userRank * 31 + 17) & M63;
    SplittableRandom u = new SplittableRandom(userId);
    int regionRank = (int) regions.next(u);
    int regionId = switch (regionRank) {
      case 1 -> 229;
      case 2 -> 2;
      case 3 -> 208;
      default -> 100 + regionRank * 37 % 30_011;
    };
    short os = (short) small.next(u);
    short userAgent = (short) small.next(u);
    boolean mobile = u.nextInt(100) < 12;
    short mobilePhone = mobile ? (short) u.nextInt(1, 8) : 0;
    String model = mobile ? MODELS[(int) models.next(u) - 1] : "";
    short[] screen = mobile ? MOBILE_SCREENS[u.nextInt(MOBILE_SCREENS.length)] : SCREENS[(int) screens.next(u) - 1];
    int homeIp = (int) (Integer.MIN_VALUE + 1_000 + Math.floorMod(mix(userId), 4_294_000_000L));
    short javaEnable = (short) (u.nextInt(10) < 7 ? 1 : 0);

    int second = r.nextInt(DAYS * 86_400);
    String url;
    String title;
    int kind = r.nextInt(100);
    if (kind < 1) {
      url = "";
      title = "";
    } else if (kind < 90) {
      long page = pages.next(r);
      url = pageUrl(site, page);
      title = pageTitle(site, page);
    } else {
      String domain = EXTERNAL[(int) externals.next(r) - 1];
      long page = pages.next(r);
      url = externalUrl(domain, page);
      title = domainTitle(domain, page);
    }
    String referer;
    String phrase = "";
    short engineId = 0;
    short trafficSource;
    int source = r.nextInt(100);
    if (source < 30) {
      referer = "";
      trafficSource = 0;
    } else if (source < 43) {
      phrase = phrase(phrases.next(r));
      String[] engine = ENGINES[(int) engines.next(r) - 1];
      engineId = Short.parseShort(engine[0]);
      referer = engine[1] + phrase.replace(' ', '+');
      trafficSource = 2;
    } else if (source < 63) {
      referer = pageUrl(site, pages.next(r));
      trafficSource = -1;
    } else if (source < 80) {
      int d = (int) externals.next(r) - 1;
      referer = externalUrl(EXTERNAL[d], pages.next(r));
      trafficSource = (short) (d == 2 || d == 4 || d == 10 || d == 12 ? 6 : 1);
    } else {
      long other = counters.next(r);
      referer = pageUrl(other <= SITES.length ? SITES[(int) other - 1] : "site" + other + ".net", pages.next(r));
      trafficSource = 1;
    }
    short advEngine = r.nextInt(100) < 4 ? ADV_ENGINES[(int) advEngines.next(r) - 1] : 0;
    if (advEngine != 0) {
      trafficSource = 3;
    }

    num(out, watchId(row));
    num(out, javaEnable);
    str(out, title);
    num(out, r.nextInt(1_000) < 995 ? 1 : 0);
    out.append(dates[second / 86_400]).append(' ');
    two(out, second / 3_600 % 24).append(':');
    two(out, second / 60 % 60).append(':');
    two(out, second % 60).append(',');
    out.append(dates[second / 86_400]).append(',');
    num(out, counterId);
    num(out, r.nextInt(10) == 0 ? (int) (Integer.MIN_VALUE + 1_000 + r.nextLong(4_294_000_000L)) : homeIp);
    num(out, regionId);
    num(out, userId);
    num(out, r.nextInt(100) < 80 ? 0 : r.nextInt(1, 4));
    num(out, os);
    num(out, userAgent);
    str(out, url);
    str(out, referer);
    num(out, r.nextInt(100) < 8 ? 1 : 0);
    num(out, screen[0]);
    num(out, screen[1]);
    num(out, mobile ? 1 : 0);
    num(out, mobilePhone);
    str(out, model);
    num(out, trafficSource);
    num(out, engineId);
    str(out, phrase);
    num(out, advEngine);
    num(out, Math.max(0, screen[0] - r.nextInt(0, 64) * 4));
    num(out, Math.max(0, screen[1] - 100 - r.nextInt(0, 64) * 4));
    num(out, r.nextInt(100) < 6 ? 1 : 0);
    num(out, r.nextInt(100) < 2 ? 1 : 0);
    num(out, r.nextInt(100) < 3 ? 1 : 0);
    num(out, hash(referer));
    out.append(hash(url)).append('\n');
  }

  /** The home page (rank 1) or a section page of a counter's site. */
  private static String pageUrl(String site, long page) {
    if (page == 1) {
      return "http://" + site + "/";
    }
    long h = mix(page * 0x9E37L + site.length());
    String url = "http://" + site + "/" + SECTIONS[(int) Math.floorMod(h, (long) SECTIONS.length)] + "/" + page
        + ".html";
    return (h >>> 20 & 3) == 0 ? url + "?id=" + Math.floorMod(h >>> 24, 100_000L) : url;
  }

  private static String pageTitle(String site, long page) {
    String name = siteName(site);
    long h = mix(page * 0x51L + site.hashCode());
    if (page == 1) {
      return name;
    }
    return Math.floorMod(h, 50L) == 0 ? "" : words(h, 2 + (int) Math.floorMod(h >>> 8, 3L)) + " - " + name;
  }

  private static String externalUrl(String domain, long page) {
    long h = mix(page * 0x3FL + domain.hashCode());
    String host = (h & 1) == 0 ? "www." + domain : domain;
    return "http://" + host + "/" + (page == 1 ? "" : SECTIONS[(int) Math.floorMod(h >>> 4, (long) SECTIONS.length)]
        + "/" + Math.floorMod(h >>> 12, 1_000_000L));
  }

  private static String domainTitle(String domain, long page) {
    String name = domain.contains("google") ? "Google" : siteName(domain);
    return words(mix(page + domain.hashCode()), 2) + " - " + name;
  }

  /** A phrase of one to three words, a function of its rank. */
  private static String phrase(long rank) {
    long h = mix(rank * 0xC2B2AE3DL);
    return words(h, 1 + (int) Math.floorMod(h >>> 40, 3L)).toLowerCase(Locale.ROOT);
  }

  private static String words(long h, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      String w = WORDS[(int) Math.floorMod(h >>> (i * 7), (long) WORDS.length)];
      sb.append(i > 0 ? " " : "").append(i == 0 ? Character.toUpperCase(w.charAt(0)) + w.substring(1) : w);
    }
    return sb.toString();
  }

  private static String siteName(String site) {
    String base = site.substring(0, site.indexOf('.'));
    return Character.toUpperCase(base.charAt(0)) + base.substring(1).replace('-', ' ');
  }

  /** A 64-bit hash of a URL; the two URLs ClickBench's queries look for get ClickBench's constants. */
  private static long hash(String s) {
    if (s.equals("http://" + SITES[0] + "/")) {
      return 2868770270353813622L;
    }
    if (s.equals(pageUrl(SITES[0], 2))) {
      return 3594120000172545465L;
    }
    long h = 0xCBF29CE484222325L;
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x100000001B3L;
    }
    return mix(h);
  }

  /** Distinct positive 63-bit ids for distinct rows (each step is a bijection of 63-bit words). */
  private static long watchId(long i) {
    long x = (i * 0x9E3779B97F4A7C15L) & M63;
    x ^= x >>> 29;
    x = (x * 0xBF58476D1CE4E5B9L) & M63;
    return x ^ (x >>> 32);
  }

  /** SplitMix64's finaliser. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static void num(StringBuilder out, long v) {
    out.append(v).append(',');
  }

  private static void str(StringBuilder out, String s) {
    out.append('"').append(s.replace("\"", "\"\"")).append("\",");
  }

  private static StringBuilder two(StringBuilder out, int v) {
    return out.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
  }
}
