package dev.travertine.io;

/** One listed object: its path relative to the storage root, size and modification time. */
public record FileInfo(String path, long length, long modificationTimeMillis) {}
