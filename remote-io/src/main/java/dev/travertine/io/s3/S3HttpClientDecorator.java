package dev.travertine.io.s3;

import java.util.Map;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;

/**
 * Wraps the HTTP client under the S3 client when a configuration has {@code s3.test.*} keys.
 * Implementations are found with {@link java.util.ServiceLoader}; production has none: the
 * tests' fault injection (latency, 503s, resets, bodies cut short) lives in remote-io's test
 * sources and reaches benchmarks and other modules' tests through its test jar.
 */
public interface S3HttpClientDecorator {
  /** The client to use instead of {@code client}, given the configuration's {@code s3.test.*} keys. */
  SdkAsyncHttpClient decorate(SdkAsyncHttpClient client, Map<String, String> testProperties);
}
