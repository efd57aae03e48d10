package dev.travertine.io.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * How to reach an S3 (or S3-compatible) service. From properties (server config, JDBC URL):
 * {@code s3.endpoint}, {@code s3.region} (default us-east-1), {@code s3.path_style}
 * (default false; true for most S3-compatible servers), {@code s3.access_key_id} and
 * {@code s3.secret_access_key} (default: the SDK's default credential chain),
 * {@code s3.max_attempts} (default 5: retries with backoff for throttling, 5xx and resets),
 * {@code s3.retry_base_delay_ms} (default 100: the first backoff, doubling up to 20 s, jittered),
 * {@code s3.request_timeout_ms} (default 60000, per attempt), {@code s3.connect_timeout_ms}
 * (default 5000), {@code s3.max_connections} (default 64), {@code s3.multipart_part_size}
 * (default 8 MiB; larger objects are written by multipart upload). Keys {@code s3.test.*} are
 * kept as they are for an {@link S3HttpClientDecorator} (the tests' fault injection).
 */
public record S3Config(URI endpoint, String region, boolean pathStyle, String accessKeyId, String secretAccessKey,
    int maxAttempts, Duration requestTimeout, Duration connectTimeout, int maxConnections, int partSize,
    Duration retryBaseDelay, Map<String, String> testProperties) {

  /** Keys handed to {@link S3HttpClientDecorator}s. */
  public static final String TEST_PREFIX = "s3.test.";

  public static final S3Config DEFAULT = fromProperties(Map.of());

  public static S3Config fromProperties(Map<String, String> p) {
    String endpoint = p.get("s3.endpoint");
    int partSize = Integer.parseInt(p.getOrDefault("s3.multipart_part_size", String.valueOf(8 << 20)));
    if (partSize < 5 << 20) {
      throw new IllegalArgumentException("s3.multipart_part_size must be at least 5 MiB (S3's minimum part): "
          + partSize);
    }
    return new S3Config(endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
        p.getOrDefault("s3.region", "us-east-1"), Boolean.parseBoolean(p.getOrDefault("s3.path_style", "false")),
        p.get("s3.access_key_id"), p.get("s3.secret_access_key"),
        Integer.parseInt(p.getOrDefault("s3.max_attempts", "5")),
        Duration.ofMillis(Long.parseLong(p.getOrDefault("s3.request_timeout_ms", "60000"))),
        Duration.ofMillis(Long.parseLong(p.getOrDefault("s3.connect_timeout_ms", "5000"))),
        Integer.parseInt(p.getOrDefault("s3.max_connections", "64")), partSize,
        Duration.ofMillis(Long.parseLong(p.getOrDefault("s3.retry_base_delay_ms", "100"))),
        Map.copyOf(p.entrySet().stream().filter(e -> e.getKey().startsWith(TEST_PREFIX))
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue))));
  }
}
