package dev.travertine.rpc.exchange;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.travertine.exec.op.Fragment;
import dev.travertine.mergetree.log.MetadataLog;
import dev.travertine.mergetree.part.PartInfo;
import dev.travertine.mergetree.schema.TableDefinition;
import dev.travertine.rpc.plan.PlanCodec;
import dev.travertine.vector.Predicate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the initiator asks a replica to run (docs/design/exchange.md, "Fragment request"): the
 * table as the initiator's snapshot fixed it (definition, storage location, the active parts'
 * metadata), what the scan reads and filters, the fragment to run on the rows, and the session
 * settings that shape the work. The replica reads the parts from the shared storage itself and
 * asks the initiator for its read tasks as it goes.
 *
 * @param queryId the initiator's query id (the replica's query runs under it)
 * @param user the user the query runs for
 * @param location the table's storage location (a shared directory, s3://…, hdfs://…)
 * @param parts the snapshot's active parts
 * @param projection table column of each scan field
 * @param filter the pushed predicate, bound to the table's schema (null = none)
 * @param settings session settings by name (those a replica uses; others are ignored)
 */
public record FragmentRequest(String queryId, String user, TableDefinition definition, String location,
    List<PartInfo> parts, int[] projection, Predicate filter, Fragment fragment, Map<String, String> settings) {

  /** The format of the request; a replica refuses other versions with a clear error. */
  public static final int VERSION = 1;

  public FragmentRequest {
    parts = List.copyOf(parts);
    settings = Map.copyOf(settings);
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(VERSION);
      PlanCodec.writeString(out, queryId);
      PlanCodec.writeString(out, user);
      PlanCodec.writeBytes(out, MetadataLog.JSON.writeValueAsBytes(definition));
      PlanCodec.writeString(out, location);
      out.writeInt(parts.size());
      for (PartInfo p : parts) {
        PlanCodec.writeBytes(out, MetadataLog.JSON.writeValueAsBytes(p));
      }
      PlanCodec.writeInts(out, projection);
      PlanCodec.writePredicate(out, filter);
      PlanCodec.writeFragment(out, fragment);
      out.writeInt(settings.size());
      for (Map.Entry<String, String> e : settings.entrySet()) {
        PlanCodec.writeString(out, e.getKey());
        PlanCodec.writeString(out, e.getValue());
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot encode a fragment request", e);
    }
  }

  /** Decodes a request, or throws {@link IOException} saying what is wrong with the bytes. */
  public static FragmentRequest decode(byte[] b, int off, int len) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(b, off, len));
    try {
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException("Fragment request of version " + version + "; this node reads version " + VERSION);
      }
      String queryId = PlanCodec.readString(in);
      String user = PlanCodec.readString(in);
      TableDefinition def = json(PlanCodec.readBytes(in), TableDefinition.class);
      String location = PlanCodec.readString(in);
      int n = in.readInt();
      if (n < 0 || n > 1 << 22) {
        throw new IOException(n + " parts");
      }
      List<PartInfo> parts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        parts.add(json(PlanCodec.readBytes(in), PartInfo.class));
      }
      int[] projection = PlanCodec.readInts(in);
      Predicate filter = PlanCodec.readPredicate(in);
      Fragment fragment = PlanCodec.readFragment(in);
      int s = in.readInt();
      if (s < 0 || s > 10_000) {
        throw new IOException(s + " settings");
      }
      Map<String, String> settings = new LinkedHashMap<>();
      for (int i = 0; i < s; i++) {
        settings.put(PlanCodec.readString(in), PlanCodec.readString(in));
      }
      PlanCodec.expectEnd(in);
      if (queryId == null || location == null || def == null) {
        throw new IOException("A fragment request without query id, location or table");
      }
      return new FragmentRequest(queryId, user, def, location, parts, projection, filter, fragment, settings);
    } catch (EOFException e) {
      throw new IOException("Truncated fragment request", e);
    } catch (IllegalArgumentException e) {
      throw new IOException("Invalid fragment request: " + e.getMessage(), e);
    }
  }

  private static <T> T json(byte[] b, Class<T> type) throws IOException {
    try {
      return MetadataLog.JSON.readValue(b, type);
    } catch (JsonProcessingException e) {
      throw new IOException("Invalid " + type.getSimpleName() + " in a fragment request: " + e.getOriginalMessage());
    }
  }
}
