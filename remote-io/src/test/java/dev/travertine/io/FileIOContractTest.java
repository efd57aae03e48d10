package dev.travertine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What every {@link FileIO} must do, run against local disk, S3 (S3Proxy) and HDFS
 * (MiniDFSCluster) by the subclasses. Each test works under its own prefix.
 */
abstract class FileIOContractTest {
  /** The storage under test (shared by the tests of a class). */
  protected abstract FileIO io();

  private static int counter;

  private static synchronized String dir(String name) {
    return "t" + (++counter) + "-" + name;
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void outputBecomesVisibleWholeOnClose() throws IOException {
    String d = dir("out");
    byte[] data = bytes(300_000, 1);
    OutputFile.AbortableOutputStream out = io().newOutputFile(d + "/a.bin").create();
    out.write(data, 0, 1000);
    out.write(data, 1000, data.length - 1000);
    assertEquals(data.length, out.position());
    assertFalse(io().exists(d + "/a.bin"), "not visible before close");
    assertTrue(io().list(d).isEmpty(), "no temporary object is listed");
    out.close();
    assertTrue(io().exists(d + "/a.bin"));
    InputFile in = io().newInputFile(d + "/a.bin");
    assertEquals(data.length, in.length());
    try (RandomAccessInput r = in.open()) {
      byte[] part = new byte[5000];
      r.readFully(123_456, part, 0, part.length);
      for (int i = 0; i < part.length; i++) {
        assertEquals(data[123_456 + i], part[i]);
      }
      assertThrows(EOFException.class, () -> r.readFully(data.length - 10, new byte[20], 0, 20));
    }
    assertArrayEquals(data, io().readAll(d + "/a.bin"));
  }

  @Test
  void abortedOutputLeavesNothing() throws IOException {
    String d = dir("abort");
    OutputFile.AbortableOutputStream out = io().newOutputFile(d + "/gone.bin").create();
    out.write(bytes(10_000, 2));
    out.abort();
    out.close();
    assertFalse(io().exists(d + "/gone.bin"));
    assertTrue(io().list(d).isEmpty());
  }

  @Test
  void largeObjectsRoundTrip() throws IOException {
    String d = dir("large");
    byte[] data = bytes(12 << 20, 3); // several multipart parts on S3
    try (OutputStream out = io().newOutputFile(d + "/big.bin").create()) {
      for (int i = 0; i < data.length; i += 1 << 20) {
        out.write(data, i, Math.min(1 << 20, data.length - i));
      }
    }
    assertEquals(data.length, io().newInputFile(d + "/big.bin").length());
    assertArrayEquals(data, io().readAll(d + "/big.bin"));
  }

  @Test
  void atomicReplaceAndCreateIfAbsent() throws IOException {
    String d = dir("atomic");
    io().writeAtomic(d + "/x.json", "one".getBytes(StandardCharsets.UTF_8));
    io().writeAtomic(d + "/x.json", "two".getBytes(StandardCharsets.UTF_8));
    assertEquals("two", new String(io().readAll(d + "/x.json"), StandardCharsets.UTF_8));
    assertTrue(io().writeIfAbsent(d + "/log/1.json", "first".getBytes(StandardCharsets.UTF_8)));
    assertFalse(io().writeIfAbsent(d + "/log/1.json", "second".getBytes(StandardCharsets.UTF_8)));
    assertEquals("first", new String(io().readAll(d + "/log/1.json"), StandardCharsets.UTF_8));
  }

  @Test
  void listDeleteAndMissingObjects() throws IOException {
    String d = dir("list");
    for (String p : List.of("b/2", "a", "b/1", "c/d/e")) {
      io().writeAtomic(d + "/" + p, p.getBytes(StandardCharsets.UTF_8));
    }
    io().writeAtomic(dir("other") + "/a", new byte[1]);
    List<FileInfo> all = io().list(d);
    assertEquals(List.of(d + "/a", d + "/b/1", d + "/b/2", d + "/c/d/e"), all.stream().map(FileInfo::path).toList());
    assertEquals(3, all.get(1).length());
    assertEquals(List.of(d + "/b/1", d + "/b/2"), io().list(d + "/b").stream().map(FileInfo::path).toList());
    assertTrue(io().list(d + "/nothing").isEmpty());
    assertTrue(io().delete(d + "/a"));
    assertFalse(io().delete(d + "/a"));
    IOException missing = assertThrows(IOException.class, () -> io().readAll(d + "/a"));
    assertTrue(missing instanceof FileNotFoundException || missing instanceof java.nio.file.NoSuchFileException,
        missing.toString());
    assertThrows(IOException.class, () -> io().newInputFile(d + "/missing").length());
    io().deletePrefix(d + "/b");
    assertEquals(List.of(d + "/c/d/e"), io().list(d).stream().map(FileInfo::path).toList());
    io().deletePrefix(d);
    assertTrue(io().list(d).isEmpty());
  }

  @Test
  void pathsCannotEscapeTheRoot() {
    assertThrows(IllegalArgumentException.class, () -> io().newInputFile("../x"));
    assertThrows(IllegalArgumentException.class, () -> io().newInputFile("/abs"));
  }
}
