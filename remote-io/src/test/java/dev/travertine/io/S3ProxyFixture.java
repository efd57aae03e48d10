package dev.travertine.io;

import dev.travertine.io.s3.S3Config;
import java.net.URI;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 protocol server in this JVM (S3Proxy over an in-memory blob store) on a loopback
 * port, with one bucket. Tests of other modules use it through remote-io's test jar.
 */
public final class S3ProxyFixture implements AutoCloseable {
  public static final String ACCESS_KEY = "travertine";
  public static final String SECRET_KEY = "travertine-secret";

  private final S3Proxy proxy;
  private final BlobStore blobStore;
  private final String bucket;

  public S3ProxyFixture(String bucket) throws Exception {
    this.bucket = bucket;
    Properties props = new Properties();
    blobStore = ContextBuilder.newBuilder("transient-nio2").credentials("identity", "credential").overrides(props)
        .build(BlobStoreContext.class).getBlobStore();
    blobStore.createContainerInLocation(null, bucket);
    proxy = S3Proxy.builder().blobStore(blobStore).endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).ignoreUnknownHeaders(true)
        .build();
    proxy.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.sleep(10);
    }
  }

  public String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  public String bucket() {
    return bucket;
  }

  /** The properties a client needs (s3.*), with the given extra ones. */
  public Map<String, String> properties() {
    return Map.of("s3.endpoint", endpoint(), "s3.path_style", "true", "s3.access_key_id", ACCESS_KEY,
        "s3.secret_access_key", SECRET_KEY, "s3.multipart_part_size", String.valueOf(5 << 20));
  }

  public S3Config config() {
    return S3Config.fromProperties(properties());
  }

  /** Creates another bucket. */
  public void createBucket(String name) {
    blobStore.createContainerInLocation(null, name);
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
  }
}
