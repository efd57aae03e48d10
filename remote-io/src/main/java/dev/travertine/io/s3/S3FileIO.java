package dev.travertine.io.s3;

import dev.travertine.io.FileIO;
import dev.travertine.io.FileInfo;
import dev.travertine.io.InputFile;
import dev.travertine.io.IoStats;
import dev.travertine.io.OutputFile;
import dev.travertine.io.RandomAccessInput;
import dev.travertine.io.SizedInputFile;
import dev.travertine.io.StoragePaths;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import java.time.Duration;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link FileIO} on S3 through the AWS SDK v2 async client: ranged GETs for positional reads,
 * one PUT per small object and multipart upload for large ones (the object appears whole when
 * the upload completes, or never), conditional PUT ({@code If-None-Match: *}) for create-if-absent.
 * Retries with backoff (throttling, 5xx, connection resets) are the SDK's standard strategy with
 * {@code s3.max_attempts}. Errors name the bucket and key; a missing bucket, refused credentials
 * or an unreachable endpoint get a message of their own.
 */
public final class S3FileIO implements FileIO {
  private static final Logger LOG = LoggerFactory.getLogger(S3FileIO.class);

  private final S3AsyncClient client;
  private final boolean ownsClient;
  private final String bucket;
  private final String prefix; // "" or "a/b" (no slashes at either end)
  private final int partSize;

  private AutoCloseable transport; // the HTTP client when we built it (the SDK does not close a given one)

  public S3FileIO(S3AsyncClient client, boolean ownsClient, String bucket, String prefix, int partSize) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.bucket = bucket;
    this.prefix = trim(prefix);
    this.partSize = partSize;
  }

  /** Opens {@code s3://bucket[/prefix]} with its own client. */
  public static S3FileIO open(URI uri, S3Config config) {
    if (!"s3".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("Invalid S3 location " + uri + " (expected s3://bucket/prefix)");
    }
    var http = httpClient(config);
    S3FileIO io = new S3FileIO(client(config, http), true, uri.getHost(), uri.getPath(), config.partSize());
    io.transport = http;
    return io;
  }

  /** An async client for a configuration over the given HTTP client. */
  public static S3AsyncClient client(S3Config c, software.amazon.awssdk.http.async.SdkAsyncHttpClient http) {
    AwsCredentialsProvider credentials = c.accessKeyId() != null
        ? StaticCredentialsProvider.create(AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey()))
        : DefaultCredentialsProvider.builder().build();
    var b = S3AsyncClient.builder()
        .region(Region.of(c.region()))
        .credentialsProvider(credentials)
        .forcePathStyle(c.pathStyle())
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .httpClient(http)
        .overrideConfiguration(o -> o
            .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(c.maxAttempts())
                .backoffStrategy(BackoffStrategy.exponentialDelay(c.retryBaseDelay(), Duration.ofSeconds(20)))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(c.retryBaseDelay().multipliedBy(5),
                    Duration.ofSeconds(20)))
                .circuitBreakerEnabled(false) // every request gets its attempts, however many others failed
                .build())
            .addExecutionInterceptor(new RetryCounter())
            .apiCallAttemptTimeout(c.requestTimeout()));
    if (c.endpoint() != null) {
      b.endpointOverride(c.endpoint());
    }
    return b.build();
  }

  private static software.amazon.awssdk.http.async.SdkAsyncHttpClient httpClient(S3Config c) {
    var netty = NettyNioAsyncHttpClient.builder().maxConcurrency(c.maxConnections())
        .connectionTimeout(c.connectTimeout()).build();
    software.amazon.awssdk.http.async.SdkAsyncHttpClient client = netty;
    if (!c.testProperties().isEmpty()) {
      boolean any = false;
      for (S3HttpClientDecorator d : java.util.ServiceLoader.load(S3HttpClientDecorator.class)) {
        client = d.decorate(client, c.testProperties());
        any = true;
      }
      if (!any) {
        LOG.warn("{} set, but no S3HttpClientDecorator is on the class path: ignored", c.testProperties().keySet());
      }
    }
    return client;
  }

  /** Counts attempts after the first of each call (system.events S3RequestRetries). */
  private static final class RetryCounter implements software.amazon.awssdk.core.interceptor.ExecutionInterceptor {
    private static final software.amazon.awssdk.core.interceptor.ExecutionAttribute<Boolean> SENT =
        new software.amazon.awssdk.core.interceptor.ExecutionAttribute<>("travertine.sent");

    @Override
    public void beforeTransmission(software.amazon.awssdk.core.interceptor.Context.BeforeTransmission context,
        software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
      if (attributes.getAttribute(SENT) != null) {
        IoStats.RETRIES.increment();
      }
      attributes.putAttribute(SENT, Boolean.TRUE);
    }
  }

  private static String trim(String p) {
    String s = p == null ? "" : p;
    while (s.startsWith("/")) {
      s = s.substring(1);
    }
    while (s.endsWith("/")) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }

  private String key(String path) {
    StoragePaths.check(path);
    return prefix.isEmpty() ? path : prefix + "/" + path;
  }

  private String relative(String key) {
    return prefix.isEmpty() ? key : key.substring(prefix.length() + 1);
  }

  @Override
  public String location() {
    return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
  }

  // ---------------------------------------------------------------- errors

  /** Waits for a request and turns SDK failures into IOExceptions with a clear message. */
  private <T> T await(CompletableFuture<T> f, String what, String key) throws IOException {
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while " + what + " s3://" + bucket + "/" + key);
    } catch (ExecutionException | CompletionException e) {
      throw translate(e.getCause() == null ? e : e.getCause(), what, key);
    }
  }

  IOException translate(Throwable t, String what, String key) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    String where = "s3://" + bucket + "/" + key;
    if (t instanceof NoSuchKeyException) {
      return new FileNotFoundException("Not found: " + where);
    }
    if (t instanceof NoSuchBucketException) {
      return new IOException("Cannot " + what + " " + where + ": bucket " + bucket + " does not exist", t);
    }
    if (t instanceof S3Exception s3) {
      int code = s3.statusCode();
      if (code == 404) {
        return new FileNotFoundException("Not found: " + where);
      }
      if (code == 403 || code == 401) {
        return new IOException("Cannot " + what + " " + where + ": access denied (check s3.access_key_id and"
            + " s3.secret_access_key): " + s3.awsErrorDetails().errorMessage(), t);
      }
      return new IOException("Cannot " + what + " " + where + ": HTTP " + code + " "
          + (s3.awsErrorDetails() == null ? s3.getMessage() : s3.awsErrorDetails().errorCode() + " "
          + s3.awsErrorDetails().errorMessage()), t);
    }
    if (t instanceof SdkClientException) {
      return new IOException("Cannot " + what + " " + where + ": cannot reach the S3 endpoint: " + t.getMessage(), t);
    }
    if (t instanceof IOException io) {
      return io;
    }
    return new IOException("Cannot " + what + " " + where + ": " + t, t);
  }

  private static boolean isNotFound(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    return t instanceof NoSuchKeyException || (t instanceof S3Exception e && e.statusCode() == 404);
  }

  // ---------------------------------------------------------------- reads

  @Override
  public boolean remote() {
    return true;
  }

  @Override
  public InputFile newInputFile(String path) {
    return newInputFile(path, -1);
  }

  @Override
  public InputFile newInputFile(String path, long knownLength) {
    String key = key(path);
    return new SizedInputFile(path, knownLength) {
      @Override
      protected long fetchLength() throws IOException {
        return await(client.headObject(r -> r.bucket(bucket).key(key)), "read", key).contentLength();
      }

      @Override
      protected RandomAccessInput open(long len) {
        return new RandomAccessInput() {
          @Override
          public long length() {
            return len;
          }

          @Override
          public void readFully(long position, byte[] buffer, int offset, int n) throws IOException {
            RandomAccessInput.checkRange(position, offset, n, buffer, len);
            if (n == 0) {
              return;
            }
            byte[] data = await(readExact(key, position, n, maxShortReads), "read", key);
            System.arraycopy(data, 0, buffer, offset, n);
          }

          @Override
          public CompletableFuture<byte[]> readAsync(long position, int n) {
            if (position < 0 || n < 0 || position + n > len) {
              return CompletableFuture.failedFuture(new java.io.EOFException("Read past end of s3://" + bucket + "/"
                  + key + ": " + position + " + " + n + " > " + len));
            }
            return readExact(key, position, n, maxShortReads).handle((data, err) -> {
              if (err != null) {
                throw new java.io.UncheckedIOException(translate(err, "read", key));
              }
              return data;
            });
          }

          @Override
          public void close() {}
        };
      }
    };
  }

  /** Reads cut short (a connection dropped mid-body) are asked again this many times. */
  private final int maxShortReads = 4;

  /** A ranged GET that must return all {@code length} bytes; short bodies are retried. */
  private CompletableFuture<byte[]> readExact(String key, long position, int length, int retries) {
    return readRange(key, position, length).thenCompose(data -> {
      if (data.length == length) {
        return CompletableFuture.completedFuture(data);
      }
      if (retries > 0) {
        IoStats.RETRIES.increment();
        return readExact(key, position, length, retries - 1);
      }
      return CompletableFuture.failedFuture(new IOException("Short read of s3://" + bucket + "/" + key + " at "
          + position + ": " + data.length + " of " + length + " bytes"));
    });
  }

  /** One ranged GET (asynchronous): the unit of remote reading. The body, which may be short (a dropped connection). */
  public CompletableFuture<byte[]> readRange(String key, long position, int length) {
    LOG.debug("GET s3://{}/{} bytes {}-{}", bucket, key, position, position + length - 1);
    IoStats.READ_REQUESTS.increment();
    IoStats.READ_BYTES.add(length);
    return client.getObject(r -> r.bucket(bucket).key(key).range("bytes=" + position + "-" + (position + length - 1)),
        new IntoArray(length));
  }

  /**
   * Collects a ranged GET's body straight into an array of the range's length: the SDK's {@code
   * toBytes()} grows a buffer as the body arrives, copying it again at each step. A body longer
   * than the range fails; a shorter one comes back shorter (the caller asks again).
   */
  private static final class IntoArray implements AsyncResponseTransformer<GetObjectResponse, byte[]> {
    private final int length;
    private volatile CompletableFuture<byte[]> result;

    IntoArray(int length) {
      this.length = length;
    }

    @Override
    public CompletableFuture<byte[]> prepare() { // once per attempt
      result = new CompletableFuture<>();
      return result;
    }

    @Override
    public void onResponse(GetObjectResponse response) {}

    @Override
    public void onStream(software.amazon.awssdk.core.async.SdkPublisher<java.nio.ByteBuffer> publisher) {
      CompletableFuture<byte[]> out = result;
      publisher.subscribe(new org.reactivestreams.Subscriber<java.nio.ByteBuffer>() {
        private final byte[] data = new byte[length];
        private int n;
        private org.reactivestreams.Subscription subscription;

        @Override
        public void onSubscribe(org.reactivestreams.Subscription s) {
          subscription = s;
          s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(java.nio.ByteBuffer b) {
          int r = b.remaining();
          if (r > length - n) {
            subscription.cancel();
            out.completeExceptionally(new IOException("Body longer than the " + length + " bytes asked"));
            return;
          }
          b.get(data, n, r);
          n += r;
        }

        @Override
        public void onError(Throwable t) {
          out.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
          out.complete(n == length ? data : java.util.Arrays.copyOf(data, n));
        }
      });
    }

    @Override
    public void exceptionOccurred(Throwable error) {
      result.completeExceptionally(error);
    }
  }

  @Override
  public byte[] readAll(String path) throws IOException {
    String key = key(path);
    for (int attempt = 0; ; attempt++) {
      LOG.debug("GET s3://{}/{}", bucket, key);
      IoStats.READ_REQUESTS.increment();
      ResponseBytes<GetObjectResponse> r = await(client.getObject(b -> b.bucket(bucket).key(key),
          AsyncResponseTransformer.toBytes()), "read", key);
      byte[] data = r.asByteArray();
      IoStats.READ_BYTES.add(data.length);
      Long expected = r.response().contentLength();
      if (expected == null || expected == data.length) {
        return data;
      }
      if (attempt >= maxShortReads) {
        throw new IOException("Short read of s3://" + bucket + "/" + key + ": " + data.length + " of " + expected
            + " bytes");
      }
      IoStats.RETRIES.increment();
    }
  }

  @Override
  public boolean exists(String path) throws IOException {
    String key = key(path);
    try {
      client.headObject(r -> r.bucket(bucket).key(key)).get();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted");
    } catch (ExecutionException e) {
      if (isNotFound(e.getCause())) {
        return false;
      }
      throw translate(e.getCause(), "check", key);
    }
  }

  @Override
  public List<FileInfo> list(String dir) throws IOException {
    String p = key(dir) + "/";
    List<FileInfo> out = new ArrayList<>();
    String token = null;
    do {
      String t = token;
      ListObjectsV2Response r = await(client.listObjectsV2(ListObjectsV2Request.builder().bucket(bucket).prefix(p)
          .continuationToken(t).build()), "list", p);
      for (S3Object o : r.contents()) {
        out.add(new FileInfo(relative(o.key()), o.size(), o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
      }
      token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
    } while (token != null);
    out.sort(Comparator.comparing(FileInfo::path));
    return out;
  }

  // ---------------------------------------------------------------- writes

  @Override
  public void writeAtomic(String path, byte[] data) throws IOException {
    String key = key(path);
    await(client.putObject(r -> r.bucket(bucket).key(key), AsyncRequestBody.fromBytes(data)), "write", key);
    IoStats.WRITE_BYTES.add(data.length);
  }

  /**
   * A conditional PUT ({@code If-None-Match: *}): S3 refuses it with 412 when the key exists. The
   * HEAD before it also covers S3-compatible servers that ignore the condition (S3Proxy), which
   * suffices with one writer per table.
   */
  @Override
  public boolean writeIfAbsent(String path, byte[] data) throws IOException {
    if (exists(path)) {
      return false;
    }
    String key = key(path);
    try {
      client.putObject(r -> r.bucket(bucket).key(key).ifNoneMatch("*"), AsyncRequestBody.fromBytes(data)).get();
      IoStats.WRITE_BYTES.add(data.length);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted");
    } catch (ExecutionException e) {
      Throwable t = e.getCause();
      if (t instanceof S3Exception s && (s.statusCode() == 412 || s.statusCode() == 409)) {
        return false;
      }
      throw translate(t, "write", key);
    }
  }

  @Override
  public boolean delete(String path) throws IOException {
    if (!exists(path)) {
      return false;
    }
    String key = key(path);
    await(client.deleteObject(r -> r.bucket(bucket).key(key)), "delete", key);
    return true;
  }

  @Override
  public void deletePrefix(String dir) throws IOException {
    List<FileInfo> all = list(dir);
    for (int i = 0; i < all.size(); i += 1000) {
      List<ObjectIdentifier> ids = all.subList(i, Math.min(all.size(), i + 1000)).stream()
          .map(f -> ObjectIdentifier.builder().key(key(f.path())).build()).toList();
      await(client.deleteObjects(r -> r.bucket(bucket).delete(Delete.builder().objects(ids).quiet(true).build())),
          "delete", key(dir) + "/");
    }
  }

  @Override
  public OutputFile newOutputFile(String path) {
    String key = key(path);
    return new OutputFile() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public AbortableOutputStream create() {
        return new UploadStream(key);
      }
    };
  }

  /**
   * Buffers up to one part in memory; a small object is one PUT at close, a large one a multipart
   * upload whose parts go out while the writer goes on (completed at close, aborted on abort).
   */
  private final class UploadStream extends OutputFile.AbortableOutputStream {
    private final String key;
    private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private String uploadId;
    private final List<CompletableFuture<CompletedPart>> parts = new ArrayList<>();
    private long position;
    private boolean done;

    UploadStream(String key) {
      this.key = key;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (done) {
        throw new IOException("Stream closed: s3://" + bucket + "/" + key);
      }
      buffer.write(b, off, len);
      position += len;
      if (buffer.size() >= partSize) {
        uploadPart();
      }
    }

    private void uploadPart() throws IOException {
      if (uploadId == null) {
        uploadId = await(client.createMultipartUpload(r -> r.bucket(bucket).key(key)), "write", key).uploadId();
      }
      byte[] data = buffer.toByteArray();
      buffer = new ByteArrayOutputStream();
      int number = parts.size() + 1;
      IoStats.WRITE_BYTES.add(data.length);
      parts.add(client.uploadPart(r -> r.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
          AsyncRequestBody.fromBytes(data)).thenApply(r -> CompletedPart.builder().partNumber(number)
          .eTag(r.eTag()).build()));
      if (parts.size() - completed() > 4) {
        await(parts.get(parts.size() - 5), "write", key); // at most 4 parts in flight
      }
    }

    private int completed() {
      int n = 0;
      for (CompletableFuture<CompletedPart> p : parts) {
        if (p.isDone()) {
          n++;
        }
      }
      return n;
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public void close() throws IOException {
      if (done) {
        return;
      }
      try {
        if (uploadId == null) {
          byte[] data = buffer.toByteArray();
          await(client.putObject(r -> r.bucket(bucket).key(key), AsyncRequestBody.fromBytes(data)), "write", key);
          IoStats.WRITE_BYTES.add(data.length);
        } else {
          if (buffer.size() > 0) {
            uploadPart();
          }
          List<CompletedPart> done = new ArrayList<>();
          for (CompletableFuture<CompletedPart> p : parts) {
            done.add(await(p, "write", key));
          }
          await(client.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)
              .multipartUpload(CompletedMultipartUpload.builder().parts(done).build())), "write", key);
        }
        done = true;
      } catch (IOException | RuntimeException e) {
        abort();
        throw e;
      }
    }

    @Override
    public void abort() {
      if (done) {
        return;
      }
      done = true;
      buffer = new ByteArrayOutputStream();
      if (uploadId != null) {
        try {
          client.abortMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(uploadId)).get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
          LOG.warn("Cannot abort multipart upload of s3://{}/{}: {}", bucket, key, e.getCause().toString());
        }
      }
    }
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
      if (transport != null) {
        try {
          transport.close();
        } catch (Exception e) {
          LOG.debug("Closing the HTTP client: {}", e.toString());
        }
      }
    }
  }
}
