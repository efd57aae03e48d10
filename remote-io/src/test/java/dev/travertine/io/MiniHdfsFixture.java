package dev.travertine.io;

import java.net.URI;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/** A real HDFS (namenode + one datanode) in this JVM on loopback ports; ~10 s to start. */
public final class MiniHdfsFixture implements AutoCloseable {
  private final MiniDFSCluster cluster;

  public MiniHdfsFixture(Path baseDir) throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.toAbsolutePath().toString());
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0");
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
  }

  /** hdfs://host:port */
  public URI uri() {
    return cluster.getURI();
  }

  @Override
  public void close() {
    cluster.shutdown();
  }
}
