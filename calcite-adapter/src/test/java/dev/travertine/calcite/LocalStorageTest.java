package dev.travertine.calcite;

import java.util.Map;

/** The storage end-to-end suite on a local directory given as a file: location. */
class LocalStorageTest extends StorageEndToEndTest {
  @Override
  protected String location() {
    return dir.resolve("elsewhere").toUri().toString().replaceAll("/$", "");
  }

  @Override
  protected Map<String, String> properties() {
    return Map.of();
  }
}
