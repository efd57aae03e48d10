package dev.travertine.calcite;

import dev.travertine.io.S3ProxyFixture;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The storage end-to-end suite on S3 (S3Proxy in this JVM). */
class S3StorageTest extends StorageEndToEndTest {
  private static S3ProxyFixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyFixture("tables-bucket");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  @Override
  protected String location() {
    return "s3://tables-bucket/warehouse";
  }

  @Override
  protected Map<String, String> properties() {
    return s3.properties();
  }
}
