package dev.travertine.vector;

/**
 * Named, typed columns by index: what a {@link Predicate} fixes its constants' types to and names
 * its columns by (a table's schema is one).
 */
public interface Fields {
  /** The column's name. */
  String name(int column);

  /** The column's type. */
  DataType type(int column);
}
