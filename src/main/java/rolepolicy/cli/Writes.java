package rolepolicy.cli;

import java.util.Set;

/**
 * A command some of whose path options or parameters name what it writes, besides {@code --out}
 * and the like: the output guard does not count them as inputs.
 */
interface Writes {
  /** The options' longest names, or the parameters' labels. */
  Set<String> writtenOptions();
}
